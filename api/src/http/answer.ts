import { REPLAYED_HEADER, type IdempotentAnswer } from './idempotency.js';
import type { AppContext } from './context.js';

/** Sends a money-moving call's answer; a replay of an earlier Idempotency-Key is marked. */
export function sendAnswer<T>(ctx: AppContext, result: IdempotentAnswer<T>): void {
  if (result.replayed) ctx.set(REPLAYED_HEADER, 'true');
  ctx.status = result.status;
  ctx.body = result.body;
}
