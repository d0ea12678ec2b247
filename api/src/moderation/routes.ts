import Router from '@koa/router';
import type { Deps } from '../deps.js';
import { currentUser, type AuthMiddleware } from '../http/auth.js';
import type { AppState } from '../http/context.js';
import { serve } from '../http/route.js';
import { REPORT_THANKS } from '../../contract/texts.js';
import type { ReportAnswer } from '../../contract/reports.js';
import { createReport } from './service.js';

/** Reports. The answer is the same thanks for every report: it never names who was reported. */
export function reportRoutes(deps: Deps, { authenticate }: AuthMiddleware): Router<AppState> {
  const router = new Router<AppState>();

  serve(router, 'POST /api/reports', [authenticate], async (ctx, { body }) => {
    const { report, created } = await createReport(deps, currentUser(ctx).id, body, (ms) =>
      ctx.set('Retry-After', String(Math.max(1, Math.ceil(ms / 1000)))),
    );
    const answer: ReportAnswer = { ok: true, message: REPORT_THANKS, reportId: report.id };
    ctx.status = created ? 201 : 200;
    ctx.body = answer;
  });

  return router;
}
