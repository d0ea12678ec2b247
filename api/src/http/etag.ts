import crypto from 'node:crypto';
import type { AppContext } from './context.js';

/** A short hash of the content, for an ETag: base64url SHA-1 (collisions are not a security question here). */
export const contentHash = (content: string | Buffer): string => crypto.createHash('sha1').update(content).digest('base64url');

/** A JSON answer serialized once, with its weak ETag: what `answerWithEtag` sends (and a cache can keep). */
export interface TaggedJson {
  body: string;
  etag: string;
}

export function jsonWithEtag(value: unknown): TaggedJson {
  const body = JSON.stringify(value);
  return { body, etag: `W/"${contentHash(body)}"` };
}

/**
 * Answers a serialized JSON value (`jsonWithEtag`) with a weak ETag (a hash of the serialized body: weak, since koa-compress
 * may encode it), so a client that sends it back in If-None-Match gets a bodiless 304 when nothing
 * changed. Only for answers that are the same for every viewer. Anonymous answers are
 * `Cache-Control: no-cache` (kept, revalidated each time); a signed-in one stays `no-store`
 * (http/no-store.ts), though it still answers 304 to a client that keeps the ETag itself.
 */
export function answerWithEtag(ctx: AppContext, { body, etag }: TaggedJson): void {
  ctx.status = 200;
  ctx.type = 'application/json';
  ctx.set('ETag', etag);
  if (!ctx.state.session) ctx.set('Cache-Control', 'no-cache');
  if (ctx.fresh) {
    ctx.status = 304;
    return;
  }
  ctx.body = body;
}
