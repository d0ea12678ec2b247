import Router from '@koa/router';
import type { Deps } from '../deps.js';
import { currentUser, type AuthMiddleware } from '../http/auth.js';
import type { AppState } from '../http/context.js';
import { validate } from '../http/validate.js';
import { REPORT_THANKS } from '../../contract/texts.js';
import { CreateReportBody, type ReportAnswer } from './schemas.js';
import { createReport } from './service.js';

/** Reports (issue 14). The answer is the same thanks for every report: it never names who was reported. */
export function reportRoutes(deps: Deps, { authenticate }: AuthMiddleware): Router<AppState> {
  const router = new Router<AppState>();

  router.post(
    '/api/reports',
    authenticate,
    validate({ body: CreateReportBody }, async (ctx, { body }) => {
      await createReport(deps.db, currentUser(ctx).id, body);
      const answer: ReportAnswer = { ok: true, message: REPORT_THANKS };
      ctx.status = 201;
      ctx.body = answer;
    }),
  );

  return router;
}
