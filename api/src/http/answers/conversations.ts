import { z } from 'zod';
import { BlockResponse, BlockView } from '../../../contract/blocks.js';
import {
  ConversationView,
  MessagesPage,
  OnlineResponse,
  ReturnGiftResponse,
  SendMessageResponse,
  UnreadMessagesResponse,
} from '../../../contract/conversations.js';
import { MarkNotificationsReadResponse, NotificationView } from '../../../contract/notifications.js';
import { ReportAnswer } from '../../../contract/reports.js';
import { json, noContent, type AnswerMap } from './shape.js';

/** Conversations, messages, notifications, presence, blocks and reports. */
export const conversationAnswers: AnswerMap = {
  'GET /messages/unread': [json(200, UnreadMessagesResponse, 'Unread messages over all conversations')],
  'POST /messages/send': [json(201, SendMessageResponse, 'The message is sent')],
  'GET /conversations/find/:conversationId': [json(200, ConversationView, 'The conversation, as its member sees it')],
  'GET /conversations/:userId': [json(200, z.array(ConversationView), "The user's conversations")],
  'GET /messages/:conversationId': [json(200, MessagesPage, 'One page of messages, oldest first; opening it marks it read')],
  'POST /conversations/:conversationId/gifts/:messageId/return': [json(200, ReturnGiftResponse, 'The gift went back to its giver')],
  'GET /api/notifications/:userId': [json(200, z.array(NotificationView), "The user's notifications")],
  'PUT /api/read-notifications/:userId': [json(200, MarkNotificationsReadResponse, 'How many notifications were marked read')],
  'GET /api/onlineusers/:userId': [
    json(
      200,
      OnlineResponse,
      'Both of you show your presence, and the person has been online for about a minute (or left less than a minute ago)',
    ),
    noContent('Not shown as online: offline, only just arrived, or one of you does not show presence'),
  ],
  'GET /api/blocks': [json(200, z.array(BlockView), "The user's blocks")],
  'POST /api/blocks': [json(201, BlockResponse, 'The block is made'), json(200, BlockResponse, 'The block already existed')],
  'DELETE /api/blocks/:id': [noContent('The block is gone')],
  'POST /api/reports': [
    json(201, ReportAnswer, 'The report is stored; the same thanks for every report'),
    json(200, ReportAnswer, 'The reporter had already reported this message: that report, nothing new stored'),
  ],
};
