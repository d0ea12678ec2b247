import fs from 'node:fs';
import path from 'node:path';
import Router from '@koa/router';
import multer from '@koa/multer';
import { z } from 'zod';
import { replaceProfilePicture } from '../commands/replace-profile-picture.js';
import type { Deps } from '../deps.js';
import { badRequest } from '../errors.js';
import { actingUser, type AuthMiddleware } from '../http/auth.js';
import type { AppState } from '../http/context.js';
import { routeLimit } from '../http/rate-limit.js';
import { serve } from '../http/route.js';
import { parse } from '../http/validate.js';
import { presentPrivateUser } from '../users/presenter.js';
import { UPLOAD_NAME, uploadsDir } from './service.js';
import { AppError } from '../errors.js';
import type { Middleware } from '../http/context.js';
import { NUL_REFUSED, containsNul } from '../http/input.js';

/** The spec's text for an upload that could not be read (section 8). */
import { UPLOAD_FAILED } from '../../contract/texts.js';

export { UPLOAD_FAILED };

const UploadFields = z.object({
  pfpOrCover: z.enum(['profilePicture', 'coverPhoto'], {
    error: 'pfpOrCover must be profilePicture or coverPhoto.',
  }),
  username: z.string().optional(),
});

export function uploadRoutes(deps: Deps, { authenticate }: AuthMiddleware): Router<AppState> {
  const router = new Router<AppState>();
  const upload = multer({
    storage: multer.memoryStorage(),
    limits: { fileSize: deps.config.uploadMaxBytes, files: 1, fields: 5, parts: 6 },
  });

  // Whatever goes wrong reading the multipart body (cut short, no boundary, bad part headers,
  // too many parts) is the client's upload: a 4xx with the spec's text, never a 500.
  const single = upload.single('file');
  const receiveFile: Middleware = async (ctx, next) => {
    try {
      await single(ctx, async () => undefined);
    } catch (err) {
      if (err instanceof AppError) throw err;
      const tooBig = (err as { code?: unknown }).code === 'LIMIT_FILE_SIZE';
      throw new AppError(tooBig ? 413 : 400, tooBig ? 'too_large' : 'bad_upload', UPLOAD_FAILED);
    }
    await next();
  };

  // Every upload runs sharp: a tighter limit than the default one.
  const limitUploads = routeLimit(deps.limits, deps.config, 'upload', 'Too many uploads. Please wait a minute and try again.');
  serve(router, 'POST /api/upload', [limitUploads, authenticate, receiveFile], async (ctx) => {
    if (containsNul(ctx.request.body)) throw badRequest(NUL_REFUSED, 'invalid_characters');
    const fields = parse(UploadFields, ctx.request.body ?? {});
    const user = actingUser(ctx, { username: fields.username });
    const file = ctx.file;
    if (!file) throw badRequest('Choose an image to upload.', 'missing_file');
    const slot = fields.pfpOrCover === 'coverPhoto' ? 'coverPicture' : 'profilePicture';
    const { user: updated, location } = await replaceProfilePicture(deps, user.id, slot, file.buffer);
    ctx.body = { urls: [{ location }], user: presentPrivateUser(updated) };
  });

  // Stored pictures: only our own file names, always as JPEG, never sniffed or scripted.
  serve(router, 'GET /uploads/:name', async (ctx) => {
    const name = ctx.params.name;
    if (!UPLOAD_NAME.test(name)) return;
    const file = path.join(uploadsDir(deps.config), name);
    try {
      const stat = await fs.promises.stat(file);
      ctx.set('Content-Type', 'image/jpeg');
      ctx.set('Content-Length', String(stat.size));
      ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
      ctx.set('Content-Security-Policy', "default-src 'none'");
      ctx.set('Content-Disposition', 'inline');
      ctx.body = fs.createReadStream(file);
    } catch {
      // not found: the 404 answer comes from the error middleware
    }
  });

  return router;
}
