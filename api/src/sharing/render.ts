/**
 * Draws share images: the layout (layout.ts) through satori into an SVG whose text is paths, then
 * sharp rasterises it at the format's pixel ratio. Rendered PNGs are kept in a small LRU keyed by
 * the content's hash (the ETag), and concurrent requests for one image share one render.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Font } from 'satori';
import type { PictureSource, ShareContent } from './content.js';
import { shareLayout, type Pictures } from './layout.js';
import { LruCache } from '../lru.js';
import { FORMATS } from './templates.js';
import type { ShareFormat, ShareTemplate } from './urls.js';

export interface RendererOptions {
  fonts: Font[];
  /** DATA_DIR/uploads: uploaded profile pictures. */
  uploadsDir: string;
  /** The embedded catalogue's images (CATALOG_DIR/images), served at /catalog/images/. */
  catalogImagesDir: string;
  /** How long a remote item picture may take before the image goes without it. */
  fetchTimeoutMs?: number;
  /** How many rendered PNGs to keep. */
  cacheEntries?: number;
}

/** Remote pictures larger than this are not used. */
const MAX_PICTURE_BYTES = 8 * 1024 * 1024;
/** Picture sizes in device pixels: the largest each is drawn at (story, pixel ratio 3). */
const AVATAR_PX = 264;
const ITEM_PX = 540;
const WISH_PX = 240;

/** satori and sharp are imported with the first image drawn, not with the server: most of its work draws none. */
export class ShareRenderer {
  private readonly cache: LruCache<Buffer>;
  private readonly rendering = new Map<string, Promise<{ png: Buffer; complete: boolean }>>();
  /** How many images were drawn (not served from the cache): the tests and the bench read it. */
  renders = 0;

  constructor(private readonly options: RendererOptions) {
    this.cache = new LruCache(options.cacheEntries ?? 50);
  }

  /**
   * The PNG for `key` (the content's hash): from the cache, a render under way, or a new render.
   * An image drawn without a picture it should have (a remote one that timed out) is not kept,
   * so the next request tries again.
   */
  async png(key: string, content: ShareContent, template: ShareTemplate, format: ShareFormat): Promise<Buffer> {
    const cached = this.cache.get(key);
    if (cached) return cached;
    let pending = this.rendering.get(key);
    if (!pending) {
      pending = this.draw(content, template, format).finally(() => this.rendering.delete(key));
      this.rendering.set(key, pending);
    }
    const { png, complete } = await pending;
    if (complete) this.cache.set(key, png);
    return png;
  }

  /** Whether the PNG for `key` is in the cache (the tests read it). */
  has(key: string): boolean {
    return this.cache.get(key) !== undefined;
  }

  /** The SVG satori makes of the layout (text as paths). */
  async svg(content: ShareContent, template: ShareTemplate, format: ShareFormat): Promise<string> {
    return (await this.drawSvg(content, template, format)).svg;
  }

  private async drawSvg(content: ShareContent, template: ShareTemplate, format: ShareFormat) {
    const { width, height } = FORMATS[format];
    const { pictures, complete } = await this.pictures(content);
    const { default: satori } = await import('satori');
    const svg = await satori(shareLayout(content, pictures, template, format), { width, height, fonts: this.options.fonts });
    return { svg, complete };
  }

  private async draw(content: ShareContent, template: ShareTemplate, format: ShareFormat): Promise<{ png: Buffer; complete: boolean }> {
    this.renders += 1;
    const { svg, complete } = await this.drawSvg(content, template, format);
    const { default: sharp } = await import('sharp');
    const png = await sharp(Buffer.from(svg), { density: 72 * FORMATS[format].ratio })
      .png()
      .toBuffer();
    return { png, complete };
  }

  private async pictures(content: ShareContent): Promise<{ pictures: Pictures; complete: boolean }> {
    const sources = [content.avatar, content.item?.picture ?? null, ...(content.wishes ?? []).slice(0, 4).map((w) => w.picture)];
    const [avatar, item, ...wishes] = await Promise.all([
      this.picture(sources[0], AVATAR_PX, 'cover'),
      this.picture(sources[1], ITEM_PX, 'contain'),
      ...sources.slice(2).map((source) => this.picture(source, WISH_PX, 'contain')),
    ]);
    const complete = [avatar, item, ...wishes].every((got, i) => got !== null || sources[i]?.kind !== 'remote');
    return { pictures: { avatar, item, wishes }, complete };
  }

  /** A picture as a JPEG data URI at `size`×`size`, or null when it cannot be had (never an error). */
  private async picture(source: PictureSource | null, size: number, fit: 'cover' | 'contain'): Promise<string | null> {
    if (!source) return null;
    try {
      const bytes = await this.read(source);
      if (!bytes) return null;
      const { default: sharp } = await import('sharp');
      const jpeg = await sharp(bytes, { limitInputPixels: 50_000_000, failOn: 'error' })
        .rotate()
        .resize(size, size, { fit, background: '#ffffff' })
        .flatten({ background: '#ffffff' })
        .jpeg({ quality: 86 })
        .toBuffer();
      return `data:image/jpeg;base64,${jpeg.toString('base64')}`;
    } catch {
      return null;
    }
  }

  private async read(source: PictureSource): Promise<Buffer | null> {
    if (source.kind === 'upload') return fs.readFile(path.join(this.options.uploadsDir, path.basename(source.path)));
    if (source.kind === 'catalog') return fs.readFile(path.join(this.options.catalogImagesDir, path.basename(source.path)));
    const res = await fetch(source.url, { signal: AbortSignal.timeout(this.options.fetchTimeoutMs ?? 2000), redirect: 'follow' });
    if (!res.ok || !res.body) return null;
    if (Number(res.headers.get('content-length') ?? 0) > MAX_PICTURE_BYTES) return null;
    const bytes = Buffer.from(await res.arrayBuffer());
    return bytes.length > MAX_PICTURE_BYTES ? null : bytes;
  }
}
