import { z } from 'zod';
import {
  AcceptLinkResponse,
  ActiveLinksResponse,
  CancelLinkResponse,
  ConfirmGiveResponse,
  GiveResponse,
  LinkView,
  OpenLinkResponse,
  RespondedResponse,
} from '../../../contract/links.js';
import { json, notModified, type AnswerMap } from './shape.js';

/** A share image: a PNG, or 304 when the client's copy is current. */
const shareImage = [
  { status: 200, media: 'image/png', binary: true, description: 'The share image (story 1080×1920 or card 1200×630)' },
  notModified,
];

/** Gift links and their share images. */
export const linkAnswers: AnswerMap = {
  'POST /links/create': [json(201, LinkView, 'The new link (a replayed Idempotency-Key answers the first answer again)')],
  'GET /links/all': [json(200, z.array(LinkView), 'One page of the feed (with an ETag)'), notModified],
  'GET /links/profile/:username': [json(200, z.array(LinkView), "One page of the person's links")],
  'GET /links/active-links/:username': [json(200, ActiveLinksResponse, 'How many open links the person has')],
  'POST /links/:linkCreatorUsername': [json(200, OpenLinkResponse, "The person's current link, as the visitor may see it")],
  'GET /api/user-respond': [json(200, RespondedResponse, 'Whether the user already used the link')],
  'PUT /api/accept-link': [json(200, AcceptLinkResponse, 'The gift is received: its conversation and message')],
  'POST /statuses/api/gives': [json(201, GiveResponse, 'The gift is given: the give and its conversation')],
  'PUT /statuses/api/statuses/:postId/give': [json(200, ConfirmGiveResponse, 'The give the first call made is confirmed')],
  'DELETE /api/links/:linkId': [json(200, CancelLinkResponse, 'The link is closed and its unused escrow is back in the balance')],
  'GET /links/:username/image': shareImage,
  'GET /wishlists/:username/image': shareImage,
};
