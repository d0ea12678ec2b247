/**
 * Where share images live. Free of the renderer (no satori, no fonts), so the link previews
 * (sharing/preview.ts) can import it cheaply. The templates, formats and the image path are the
 * contract's (api/contract/share.ts), shared with the share modal.
 */
import {
  SHARE_FORMATS,
  SHARE_TEMPLATES,
  shareImagePath,
  type ShareFormat,
  type ShareKind,
  type ShareTemplate,
} from '../../contract/share.js';

export { SHARE_FORMATS, SHARE_TEMPLATES, shareImagePath };
export type { ShareFormat, ShareKind, ShareTemplate };

export interface ShareImageOptions {
  template?: ShareTemplate;
  format?: ShareFormat;
}

/** The absolute URL of a share image under PUBLIC_URL (og:image uses the `card` format). */
export function shareImageUrl(
  publicUrl: string,
  kind: ShareKind,
  username: string,
  { template = 'standard', format = 'story' }: ShareImageOptions = {},
): string {
  return publicUrl.replace(/\/$/, '') + shareImagePath(kind, username, template, format);
}

/** The page a share image points to: PUBLIC_URL + /link/{username} or /wishlist/{username}. */
export function sharePageUrl(publicUrl: string, kind: ShareKind, username: string): string {
  return `${publicUrl.replace(/\/$/, '')}/${kind === 'link' ? 'link' : 'wishlist'}/${encodeURIComponent(username)}`;
}
