import { z } from 'zod';
import type {
  CancelSubscriptionResponse,
  CreatePaymentIntentResponse,
  CreateSubscriptionResponse,
  SandboxConfirmResponse,
  SubscriptionConfigResponse,
  SubscriptionInfo,
  SubscriptionInfoResponse,
} from '../../../contract/subscriptions.js';
import {
  moneyHistoryKinds,
  type BalanceResponse,
  type MoneyHistoryEntry,
  type MoneyHistoryPage,
  type MoneyHistoryParty,
  type NewBalanceResponse,
} from '../../../contract/wallet.js';
import { dollars, isoTime, json, shape, type AnswerMap } from './shape.js';

const BalanceSchema = shape<BalanceResponse>()(z.object({ balance: dollars }));
const NewBalanceSchema = shape<NewBalanceResponse>()(z.object({ new_balance: dollars }));

const PartySchema = shape<MoneyHistoryParty>()(z.object({ username: z.string(), displayName: z.string() }));

export const MoneyHistoryEntrySchema = shape<MoneyHistoryEntry>()(
  z.object({
    id: z.string(),
    createdAt: isoTime,
    kind: z.enum(moneyHistoryKinds),
    amount: dollars,
    balance: dollars,
    party: PartySchema.nullable(),
    anonymous: z.boolean(),
  }),
);

const MoneyHistoryPageSchema = shape<MoneyHistoryPage>()(
  z.object({ entries: z.array(MoneyHistoryEntrySchema), nextCursor: z.string().nullable() }),
);

const SubscriptionInfoSchema = shape<SubscriptionInfo>()(
  z.object({
    status: z.enum(['incomplete', 'active', 'past_due', 'canceled']).nullable(),
    subscriptionEndDate: isoTime.nullable(),
    id: z.string().nullable(),
    cancelAtPeriodEnd: z.boolean(),
    paymentMethod: z.enum(['card', 'balance']).nullable(),
    isSubscribed: z.boolean(),
    communityInviteUrl: z.string().nullable(),
  }),
);

const SubscriptionInfoResponseSchema = shape<SubscriptionInfoResponse>()(z.object({ subscriptionInfo: SubscriptionInfoSchema }));
const SubscriptionConfigSchema = shape<SubscriptionConfigResponse>()(
  z.object({ provider: z.enum(['sandbox', 'stripe']), testMode: z.boolean(), publishableKey: z.string().nullable(), price: dollars }),
);
const PaymentIntentSchema = shape<CreatePaymentIntentResponse>()(z.object({ clientSecret: z.string() }));
const CreateSubscriptionSchema = shape<CreateSubscriptionResponse>()(z.object({ subscriptionId: z.string() }));
const CancelSchema = shape<CancelSubscriptionResponse>()(z.object({ isCanceled: z.boolean() }));
const SandboxConfirmSchema = shape<SandboxConfirmResponse>()(z.object({ paymentIntentId: z.string(), status: z.literal('succeeded') }));

/** The balance, deposits and withdrawals, the money history and the weekly subscription. */
export const moneyAnswers: AnswerMap = {
  'GET /api/billing-settings-balance': [json(200, BalanceSchema, 'The balance in dollars')],
  'POST /api/billing-settings-deposit': [json(200, NewBalanceSchema, 'The balance after the deposit')],
  'POST /api/billing-settings-withdrawal': [json(200, NewBalanceSchema, 'The balance after the withdrawal')],
  'GET /api/wallet/history': [json(200, MoneyHistoryPageSchema, 'One page of the money history, newest first')],
  'GET /api/wallet/history.csv': [
    { status: 200, media: 'text/csv', description: 'The whole money history (with the same filter) as a CSV attachment' },
  ],
  'GET /subscriptions/config': [json(200, SubscriptionConfigSchema, 'How the subscription page takes a card')],
  'POST /subscriptions/create-payment-intent': [json(200, PaymentIntentSchema, 'The secret the page confirms the first payment with')],
  'POST /subscriptions/create-subscription': [json(200, CreateSubscriptionSchema, 'The subscription is active')],
  'GET /subscriptions/get-subscription-info/:userId': [json(200, SubscriptionInfoResponseSchema, "The user's own subscription")],
  'POST /subscriptions/cancel': [json(200, CancelSchema, 'Whether the subscription is now canceled (at the period end)')],
  'POST /subscriptions/sandbox/confirm': [json(200, SandboxConfirmSchema, 'The sandbox card payment succeeded')],
};
