import { z } from 'zod';
import { BlockBody, BlockParams, BlockResponse, BlockView } from '../blocks.js';
import { PageQuery } from '../common.js';
import {
  ConversationParams,
  ConversationView,
  InboxQuery,
  MessagesPage,
  OnlineResponse,
  ReturnGiftParams,
  ReturnGiftResponse,
  SendMessageBody,
  SendMessageResponse,
  UnreadMessagesResponse,
  UnreadQuery,
  UserIdParams,
} from '../conversations.js';
import { MarkNotificationsReadResponse, NotificationView } from '../notifications.js';
import { CreateReportBody, ReportAnswer } from '../reports.js';
import { json, noContent, type RouteSpec } from '../route-table.js';

/** Conversations, messages, notifications, presence, blocks and reports. */
export const conversationRoutes = {
  'GET /messages/unread': {
    query: UnreadQuery,
    answers: [json(200, UnreadMessagesResponse, 'Unread messages over all conversations')],
  },
  'POST /messages/send': {
    body: SendMessageBody,
    answers: [json(201, SendMessageResponse, 'The message is sent')],
  },
  'GET /conversations/find/:conversationId': {
    params: ConversationParams,
    answers: [json(200, ConversationView, 'The conversation, as its member sees it')],
  },
  'GET /conversations/:userId': {
    params: UserIdParams,
    query: InboxQuery,
    answers: [json(200, z.array(ConversationView), "The user's conversations")],
  },
  'GET /messages/:conversationId': {
    params: ConversationParams,
    query: PageQuery,
    answers: [json(200, MessagesPage, 'One page of messages, oldest first; opening it marks it read')],
  },
  'POST /conversations/:conversationId/gifts/:messageId/return': {
    params: ReturnGiftParams,
    answers: [json(200, ReturnGiftResponse, 'The gift went back to its giver')],
  },
  'GET /api/notifications/:userId': {
    params: UserIdParams,
    answers: [json(200, z.array(NotificationView), "The user's notifications")],
  },
  'PUT /api/read-notifications/:userId': {
    params: UserIdParams,
    answers: [json(200, MarkNotificationsReadResponse, 'How many notifications were marked read')],
  },
  'GET /api/onlineusers/:userId': {
    params: UserIdParams,
    answers: [
      json(
        200,
        OnlineResponse,
        'Both of you show your presence, and the person has been online for about a minute (or left less than a minute ago)',
      ),
      noContent('Not shown as online: offline, only just arrived, or one of you does not show presence'),
    ],
  },
  'GET /api/blocks': { answers: [json(200, z.array(BlockView), "The user's blocks")] },
  'POST /api/blocks': {
    body: BlockBody,
    answers: [json(201, BlockResponse, 'The block is made'), json(200, BlockResponse, 'The block already existed')],
  },
  'DELETE /api/blocks/:id': { params: BlockParams, answers: [noContent('The block is gone')] },
  'POST /api/reports': {
    body: CreateReportBody,
    answers: [
      json(201, ReportAnswer, 'The report is stored; the same thanks for every report'),
      json(200, ReportAnswer, 'The reporter had already reported this message: that report, nothing new stored'),
    ],
  },
} satisfies Record<string, RouteSpec>;
