import { alertAnswers } from './alerts.js';
import { conversationAnswers } from './conversations.js';
import { linkAnswers } from './links.js';
import { moneyAnswers } from './money.js';
import { payoutAnswers } from './payouts.js';
import { pushAnswers } from './push.js';
import type { AnswerMap } from './shape.js';
import { userAnswers } from './users.js';
import { wishlistAnswers } from './wishlists.js';

export type { AnswerMap, SuccessAnswer } from './shape.js';
export { servedPaths, type ServedPath } from './served.js';

/**
 * How every route answers when it succeeds, by `METHOD /template` as the routers register it. The
 * OpenAPI document (http/openapi.ts) reads it; openapi.test.ts fails for a route without an entry
 * (and for an entry that names no route), so a new route must describe its answer here, with its
 * schema from the contract (api/contract/).
 */
export const successAnswers: AnswerMap = {
  ...userAnswers,
  ...moneyAnswers,
  ...payoutAnswers,
  ...linkAnswers,
  ...conversationAnswers,
  ...wishlistAnswers,
  ...alertAnswers,
  ...pushAnswers,
};
