import type { z } from 'zod';
import type { Deps } from '../deps.js';
import { badRequest } from '../errors.js';
import type { User } from '../users/entity.js';
import { SubscriptionEntity } from './entity.js';
import type { SandboxPayments } from '../payments/sandbox.js';
import type { SandboxConfirmBody, SandboxConfirmResponse } from '../../contract/subscriptions.js';

/**
 * POST /subscriptions/sandbox/confirm: the signed-in user confirms the first payment of their own
 * incomplete subscription with a test card (a client secret of anyone else's is refused).
 */
export async function confirmSandboxPayment(
  deps: Pick<Deps, 'db'>,
  sandbox: SandboxPayments,
  user: User,
  body: z.output<typeof SandboxConfirmBody>,
): Promise<SandboxConfirmResponse> {
  const paymentIntentId = body.clientSecret.split('_secret_')[0];
  const sub = await deps.db.manager.findOneBy(SubscriptionEntity, { userId: user.id });
  if (!sub || sub.status !== 'incomplete' || sub.paymentIntentId !== paymentIntentId)
    throw badRequest('This payment could not be found. Please start again.', 'unknown_payment_intent');
  return sandbox.confirm(body);
}
