import crypto from 'node:crypto';
import path from 'node:path';
import { IsNull } from 'typeorm';
import { USER_NOT_FOUND } from '../../contract/texts.js';
import type { Config } from '../config.js';
import type { Database } from '../db/index.js';
import { notFound } from '../errors.js';
import { currentLink, findCreator, linkTime } from '../links/service.js';
import { uploadsDir } from '../uploads/service.js';
import { UserEntity } from '../users/entity.js';
import { WishlistItemEntity } from '../wishlists/entity.js';
import { linkContent, wishlistContent, type ShareContent } from './content.js';
import { loadFonts } from './fonts.js';
import { ShareRenderer } from './render.js';
import type { ShareFormat, ShareKind, ShareTemplate } from './urls.js';

/** Bump when the layout changes, so images cached by ETag (here and in browsers) are drawn anew. */
const LAYOUT_VERSION = 1;

/** One share image to answer: its ETag and what to draw. */
export interface ShareImage {
  etag: string;
  content: ShareContent;
  template: ShareTemplate;
  format: ShareFormat;
}

/** The renderer of the app: fonts read once, at start-up. */
export function createShareRenderer(config: Config): ShareRenderer {
  return new ShareRenderer({
    fonts: loadFonts(),
    uploadsDir: uploadsDir(config),
    catalogImagesDir: path.join(config.catalogDir, 'images'),
  });
}

/**
 * A hash of everything the image is drawn from: the layout's version, the template and format,
 * the link (or wishlist) and its state, and the content drawn (display name, avatar path,
 * amount, item, remaining quantity, short link). Any change makes a new image.
 */
function etagOf(kind: ShareKind, subject: unknown, content: ShareContent, template: ShareTemplate, format: ShareFormat): string {
  const hash = crypto
    .createHash('sha256')
    .update(JSON.stringify([LAYOUT_VERSION, kind, template, format, subject, content]))
    .digest('base64url');
  return `"${hash.slice(0, 32)}"`;
}

/** The image of a creator's open link; 404 and 410 as opening the link page (links/service.ts). */
export async function linkImage(
  db: Database,
  config: Config,
  username: string,
  template: ShareTemplate,
  format: ShareFormat,
): Promise<ShareImage> {
  const creator = await findCreator(db, username);
  const link = await currentLink(db.manager, creator.id, linkTime(creator));
  const content = linkContent(config.publicUrl, creator, link);
  const subject = { id: link.id, status: link.status, remaining: link.remainingQuantity };
  return { etag: etagOf('link', subject, content, template, format), content, template, format };
}

/** The image of a user's wishlist (their name and 'My wishlist' when it is empty); 404 for no such user. */
export async function wishlistImage(
  db: Database,
  config: Config,
  username: string,
  template: ShareTemplate,
  format: ShareFormat,
): Promise<ShareImage> {
  const owner = await db.manager.findOneBy(UserEntity, { username: username.toLowerCase() });
  if (!owner) throw notFound(USER_NOT_FOUND);
  const items = await db.manager.find(WishlistItemEntity, {
    where: { ownerId: owner.id, archivedAt: IsNull() },
    order: { position: 'ASC', createdAt: 'ASC' },
  });
  const content = wishlistContent(config.publicUrl, owner, items);
  const subject = items.map((i) => [i.id, i.purchased]);
  return { etag: etagOf('wishlist', subject, content, template, format), content, template, format };
}
