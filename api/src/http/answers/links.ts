import { z } from 'zod';
import { VISITOR_SOURCES, type VisitorDevice } from '../../../contract/analytics.js';
import type {
  AcceptLinkResponse,
  ActiveLinksResponse,
  ConfirmGiveResponse,
  GiveResponse,
  LinkDetailsView,
  LinkMetricsView,
  LinkProgressView,
  LinkView,
  OpenLinkResponse,
  RespondedResponse,
  VisitorBreakdownView,
} from '../../../contract/links.js';
import { count, dollars, isoTime, json, notModified, shape, type AnswerMap } from './shape.js';

const LinkDetailsSchema = shape<LinkDetailsView>()(
  z.object({
    type: z.enum(['currency', 'item']),
    giveorreceive: z.enum(['give', 'receive']),
    amount: dollars,
    initialQuantity: count,
    remainingQuantity: count,
    title: z.string().nullable(),
    photo: z.string().nullable(),
    itemId: z.string().nullable(),
    totalCost: dollars,
  }),
);

/** A cell of the breakdown: null below the minimum ('fewer than 5'). */
const cell = count.nullable();
const DEVICES = ['phone', 'desktop'] as const satisfies readonly VisitorDevice[];

const BreakdownSchema = shape<VisitorBreakdownView>()(
  z.object({
    days: z.array(z.object({ day: z.iso.date(), views: cell, visitors: cell })),
    sources: z.record(z.enum(VISITOR_SOURCES), cell),
    signedIn: z.object({ loggedIn: cell, anonymous: cell }),
    devices: z.record(z.enum(DEVICES), cell),
    minimum: count,
  }),
);

const MetricsSchema = shape<LinkMetricsView>()(z.object({ views: count, visitorCount: count, breakdown: BreakdownSchema.optional() }));

const ProgressSchema = shape<LinkProgressView>()(z.object({ raised: dollars, goal: dollars, left: dollars, gifts: count }));

export const LinkViewSchema = shape<LinkView>()(
  z.object({
    _id: z.string(),
    id: z.string(),
    creatorUsername: z.string(),
    creatorUserId: z.string(),
    creatorIsSubscribed: z.boolean(),
    createdAt: isoTime,
    expiresAt: isoTime,
    status: z.enum(['active', 'used', 'expired']),
    details: LinkDetailsSchema,
    progress: ProgressSchema.optional(),
    metrics: MetricsSchema.optional(),
  }),
);

const OpenLinkSchema = shape<OpenLinkResponse>()(z.object({ updatedLink: LinkViewSchema }));
const ActiveLinksSchema = shape<ActiveLinksResponse>()(z.object({ totalLinks: count }));
const RespondedSchema = shape<RespondedResponse>()(z.object({ responded: z.boolean() }));
const AcceptLinkSchema = shape<AcceptLinkResponse>()(
  z.object({ conversationId: z.string(), newMessage: z.object({ _id: z.string(), text: z.string() }) }),
);
const GiveSchema = shape<GiveResponse>()(
  z.object({
    give: z.object({ _id: z.string(), type: z.enum(['currency', 'item']), amount: dollars, postId: z.string() }),
    conversationId: z.string(),
  }),
);
const ConfirmGiveSchema = shape<ConfirmGiveResponse>()(z.object({ ok: z.literal(true) }));

/** A share image: a PNG, or 304 when the client's copy is current. */
const shareImage = [
  { status: 200, media: 'image/png', binary: true, description: 'The share image (story 1080×1920 or card 1200×630)' },
  notModified,
];

/** Gift links and their share images. */
export const linkAnswers: AnswerMap = {
  'POST /links/create': [json(201, LinkViewSchema, 'The new link (a replayed Idempotency-Key answers the first answer again)')],
  'GET /links/all': [json(200, z.array(LinkViewSchema), 'One page of the feed (with an ETag)'), notModified],
  'GET /links/profile/:username': [json(200, z.array(LinkViewSchema), "One page of the person's links")],
  'GET /links/active-links/:username': [json(200, ActiveLinksSchema, 'How many open links the person has')],
  'POST /links/:linkCreatorUsername': [json(200, OpenLinkSchema, "The person's current link, as the visitor may see it")],
  'GET /api/user-respond': [json(200, RespondedSchema, 'Whether the user already used the link')],
  'PUT /api/accept-link': [json(200, AcceptLinkSchema, 'The gift is received: its conversation and message')],
  'POST /statuses/api/gives': [json(201, GiveSchema, 'The gift is given: the give and its conversation')],
  'PUT /statuses/api/statuses/:postId/give': [json(200, ConfirmGiveSchema, 'The give the first call made is confirmed')],
  'GET /links/:username/image': shareImage,
  'GET /wishlists/:username/image': shareImage,
};
