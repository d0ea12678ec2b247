import { z } from 'zod';
import type { BlockResponse, BlockView } from '../../../contract/blocks.js';
import type {
  ConversationView,
  MessagesPage,
  MessageView,
  OtherPartyView,
  SendMessageResponse,
  UnreadMessagesResponse,
} from '../../../contract/conversations.js';
import type { MarkNotificationsReadResponse, NotificationView } from '../../../contract/notifications.js';
import type { ReportAnswer } from '../../../contract/reports.js';
import { count, dollars, isoTime, json, noContent, shape, type AnswerMap } from './shape.js';

/** The other member as the viewer may see them: the anonymous giver has no id, no picture and no badge at all. */
const OtherPartySchema = shape<OtherPartyView>()(
  z.object({
    _id: z.string().nullable(),
    username: z.string(),
    displayName: z.string(),
    profilePicture: z.string().nullable(),
    anonymous: z.boolean(),
    isSubscribed: z.boolean().optional(),
  }),
);

export const MessageViewSchema = shape<MessageView>()(
  z.object({
    _id: z.string(),
    conversationId: z.string(),
    senderUserId: z.string(),
    mine: z.boolean(),
    text: z.string(),
    messageType: z.enum(['normal', 'gift']),
    giftDetails: z
      .object({ title: z.string().nullable(), giftType: z.enum(['item', 'currency']).nullable(), img: z.string().nullable() })
      .nullable(),
    read: z.boolean(),
    createdAt: isoTime,
    seq: z.number().int(),
  }),
);

export const ConversationViewSchema = shape<ConversationView>()(
  z.object({
    _id: z.string(),
    initiatorUserId: z.string(),
    responderUserId: z.string(),
    otherUser: OtherPartySchema,
    youAreAnonymous: z.boolean(),
    lastMessage: MessageViewSchema.nullable(),
    unreadCount: count,
  }),
);

const MessagesPageSchema = shape<MessagesPage>()(z.object({ messages: z.array(MessageViewSchema), markedAsRead: count }));
const SendMessageSchema = shape<SendMessageResponse>()(z.object({ _id: z.string(), message: MessageViewSchema }));
const UnreadSchema = shape<UnreadMessagesResponse>()(z.object({ unreadCount: count }));

export const NotificationViewSchema = shape<NotificationView>()(
  z.object({
    _id: z.string(),
    senderUserId: z.null(),
    receiverUserId: z.string(),
    amount: dollars,
    type: z.enum(['currency', 'item', 'wishlist', 'order', 'subscription']),
    giveorreceive: z.enum(['give', 'receive']).nullable(),
    linkOrWishlist: z.enum(['link', 'wishlist']),
    relatedPostId: z.string().nullable(),
    message: z.string(),
    ebItemPhoto: z.string().nullable(),
    ebItemTitle: z.string().nullable(),
    ebItemId: z.string().nullable(),
    conversationId: z.string().nullable(),
    read: z.union([z.literal(0), z.literal(1)]),
    createdAt: isoTime,
  }),
);
const MarkReadSchema = shape<MarkNotificationsReadResponse>()(z.object({ markedAsRead: count }));

/** `GET /api/onlineusers/{userId}` while the person is shown online (there is no contract type for it). */
const OnlineSchema = z.object({ online: z.literal(true) });

const BlockViewSchema = shape<BlockView>()(
  z.object({
    _id: z.string(),
    anonymous: z.boolean(),
    displayName: z.string().nullable(),
    username: z.string().nullable(),
    conversationId: z.string(),
    conversationStartedAt: isoTime,
    createdAt: isoTime,
  }),
);
const BlockResponseSchema = shape<BlockResponse>()(z.object({ block: BlockViewSchema }));
const ReportAnswerSchema = shape<ReportAnswer>()(z.object({ ok: z.literal(true), message: z.string(), reportId: z.string() }));

/** Conversations, messages, notifications, presence, blocks and reports. */
export const conversationAnswers: AnswerMap = {
  'GET /messages/unread': [json(200, UnreadSchema, 'Unread messages over all conversations')],
  'POST /messages/send': [json(201, SendMessageSchema, 'The message is sent')],
  'GET /conversations/find/:conversationId': [json(200, ConversationViewSchema, 'The conversation, as its member sees it')],
  'GET /conversations/:userId': [json(200, z.array(ConversationViewSchema), "The user's conversations")],
  'GET /messages/:conversationId': [json(200, MessagesPageSchema, 'One page of messages, oldest first; opening it marks it read')],
  'GET /api/notifications/:userId': [json(200, z.array(NotificationViewSchema), "The user's notifications")],
  'PUT /api/read-notifications/:userId': [json(200, MarkReadSchema, 'How many notifications were marked read')],
  'GET /api/onlineusers/:userId': [
    json(
      200,
      OnlineSchema,
      'Both of you show your presence, and the person has been online for about a minute (or left less than a minute ago)',
    ),
    noContent('Not shown as online: offline, only just arrived, or one of you does not show presence'),
  ],
  'GET /api/blocks': [json(200, z.array(BlockViewSchema), "The user's blocks")],
  'POST /api/blocks': [json(201, BlockResponseSchema, 'The block is made'), json(200, BlockResponseSchema, 'The block already existed')],
  'DELETE /api/blocks/:id': [noContent('The block is gone')],
  'POST /api/reports': [
    json(201, ReportAnswerSchema, 'The report is stored; the same thanks for every report'),
    json(200, ReportAnswerSchema, 'The reporter had already reported this message: that report, nothing new stored'),
  ],
};
