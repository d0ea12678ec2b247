import { z } from 'zod';
import { PageQuery } from '../common.js';
import { SHARE_FORMATS, SHARE_TEMPLATES } from '../share.js';
import { UsernameParams } from '../users.js';
import {
  AcceptLinkBody,
  CancelLinkParams,
  ConfirmGiveBody,
  ConfirmGiveParams,
  CreateLinkBody,
  CreatorParams,
  GiveBody,
  OpenLinkBody,
  RespondedQuery,
  AcceptLinkResponse,
  ActiveLinksResponse,
  CancelLinkResponse,
  ConfirmGiveResponse,
  GiveResponse,
  LinkView,
  OpenLinkResponse,
  RespondedResponse,
} from '../links.js';
import { json, notModified, type RouteSpec } from '../route-table.js';

/** GET /links/{username}/image and GET /wishlists/{username}/image: template standard and format story unless given. */
const ShareImageQuery = z.object({
  template: z.enum(SHARE_TEMPLATES, { error: `template: must be one of ${SHARE_TEMPLATES.join(', ')}` }).default('standard'),
  format: z.enum(SHARE_FORMATS, { error: `format: must be one of ${SHARE_FORMATS.join(', ')}` }).default('story'),
});

/** A share image: a PNG, or 304 when the client's copy is current. */
const shareImage = {
  params: UsernameParams,
  query: ShareImageQuery,
  answers: [
    { status: 200, media: 'image/png', binary: true, description: 'The share image (story 1080×1920 or card 1200×630)' },
    notModified,
  ],
};

/** Gift links and their share images. */
export const linkRoutes = {
  'POST /links/create': {
    body: CreateLinkBody,
    answers: [json(201, LinkView, 'The new link (a replayed Idempotency-Key answers the first answer again)')],
  },
  'GET /links/all': {
    query: PageQuery,
    answers: [json(200, z.array(LinkView), 'One page of the feed (with an ETag)'), notModified],
  },
  'GET /links/profile/:username': {
    params: UsernameParams,
    query: PageQuery,
    answers: [json(200, z.array(LinkView), "One page of the person's links")],
  },
  'GET /links/active-links/:username': {
    params: UsernameParams,
    answers: [json(200, ActiveLinksResponse, 'How many open links the person has')],
  },
  'POST /links/:linkCreatorUsername': {
    params: CreatorParams,
    body: OpenLinkBody,
    answers: [json(200, OpenLinkResponse, "The person's current link, as the visitor may see it")],
  },
  'GET /api/user-respond': {
    query: RespondedQuery,
    answers: [json(200, RespondedResponse, 'Whether the user already used the link')],
  },
  'PUT /api/accept-link': {
    body: AcceptLinkBody,
    answers: [json(200, AcceptLinkResponse, 'The gift is received: its conversation and message')],
  },
  'POST /statuses/api/gives': {
    body: GiveBody,
    answers: [json(201, GiveResponse, 'The gift is given: the give and its conversation')],
  },
  'PUT /statuses/api/statuses/:postId/give': {
    params: ConfirmGiveParams,
    body: ConfirmGiveBody,
    answers: [json(200, ConfirmGiveResponse, 'The give the first call made is confirmed')],
  },
  'DELETE /api/links/:linkId': {
    params: CancelLinkParams,
    answers: [json(200, CancelLinkResponse, 'The link is closed and its unused escrow is back in the balance')],
  },
  'GET /links/:username/image': shareImage,
  'GET /wishlists/:username/image': shareImage,
} satisfies Record<string, RouteSpec>;
