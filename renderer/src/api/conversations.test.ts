import { QueryClient } from '@tanstack/react-query';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  addToThread,
  conversationKeys,
  inboxList,
  inboxUnread,
  moveToTopOfInbox,
  setInboxUnread,
  threadMessages,
  type InboxData,
  type ThreadData,
} from './conversations';
import type { ConversationView, MessageView } from './types';

const ME = 'u-me';

const message = (id: string, seq: number, conversationId = 'c1'): MessageView => ({
  _id: id,
  conversationId,
  senderUserId: 'u-other',
  mine: false,
  text: id,
  messageType: 'normal',
  giftDetails: null,
  read: false,
  createdAt: new Date(seq * 1000).toISOString(),
  seq,
});

const conversation = (id: string, lastSeq: number | null, unreadCount = 0): ConversationView => ({
  _id: id,
  initiatorUserId: ME,
  responderUserId: `u-${id}`,
  otherUser: { _id: `u-${id}`, username: id, displayName: id, profilePicture: null, anonymous: false },
  youAreAnonymous: false,
  lastMessage: lastSeq === null ? null : message(`${id}-m${lastSeq}`, lastSeq, id),
  unreadCount,
});

/** The cached inbox: one list of conversations per page. */
const inbox = (...pages: ConversationView[][]): InboxData => ({
  pages: pages.map((conversations, i) => ({ conversations, nextCursor: i < pages.length - 1 ? `p${i + 2}` : null })),
  pageParams: pages.map((_, i) => (i === 0 ? null : `p${i + 1}`)),
});

let queryClient: QueryClient;
const cachedInbox = () => queryClient.getQueryData<InboxData>(conversationKeys.list(ME));
const ids = (data: InboxData | undefined) => inboxList(data).map((c) => c._id);

beforeEach(() => {
  queryClient = new QueryClient();
});

describe('inboxList', () => {
  it('lists each conversation once, in the order of its pages', () => {
    const moved = inbox([conversation('c', 9), conversation('a', 5)], [conversation('b', 4), conversation('c', 3)]);
    expect(ids(moved)).toEqual(['c', 'a', 'b']);
    expect(inboxList(undefined)).toEqual([]);
  });
});

describe('moveToTopOfInbox: a new message in the cached inbox', () => {
  it('moves its conversation to the top of the first page, with the message as its last', () => {
    queryClient.setQueryData(conversationKeys.list(ME), inbox([conversation('a', 5), conversation('b', 4)], [conversation('c', 3)]));
    expect(moveToTopOfInbox(queryClient, ME, 'c', message('c-m7', 7, 'c'))).toBe(true);
    expect(ids(cachedInbox())).toEqual(['c', 'a', 'b']);
    expect(cachedInbox()?.pages[1].conversations).toEqual([]);
    expect(inboxList(cachedInbox())[0].lastMessage?.seq).toBe(7);
  });

  it('leaves the inbox as it is for a message it has already shown', () => {
    const before = inbox([conversation('a', 5), conversation('b', 4)]);
    queryClient.setQueryData(conversationKeys.list(ME), before);
    expect(moveToTopOfInbox(queryClient, ME, 'b', message('b-m4', 4, 'b'))).toBe(true);
    expect(cachedInbox()).toBe(before);
  });

  it('answers false for a conversation the cached inbox does not hold, and true when nothing is cached', () => {
    queryClient.setQueryData(conversationKeys.list(ME), inbox([conversation('a', 5)]));
    expect(moveToTopOfInbox(queryClient, ME, 'new', message('n1', 1, 'new'))).toBe(false);
    expect(moveToTopOfInbox(queryClient, 'u-nobody', 'a', message('a-m6', 6, 'a'))).toBe(true);
  });
});

describe('unread counts in the cached inbox', () => {
  it('are read and changed for one conversation, on whichever page it is, never below zero', () => {
    queryClient.setQueryData(conversationKeys.list(ME), inbox([conversation('a', 5, 2)], [conversation('b', 4, 1)]));
    expect(inboxUnread(queryClient, ME, 'b')).toBe(1);
    setInboxUnread(queryClient, ME, 'b', (n) => n + 2);
    expect(inboxUnread(queryClient, ME, 'b')).toBe(3);
    expect(inboxUnread(queryClient, ME, 'a')).toBe(2);
    setInboxUnread(queryClient, ME, 'a', (n) => n - 5);
    expect(inboxUnread(queryClient, ME, 'a')).toBe(0);
    expect(inboxUnread(queryClient, ME, 'missing')).toBe(0);
  });
});

describe('a cached thread', () => {
  const thread = (...pages: MessageView[][]): ThreadData => ({
    pages: pages.map((messages) => ({ messages, markedAsRead: 0 })),
    pageParams: pages.map((_, i) => i + 1),
  });

  it('lists its messages once each in seq order, across its pages (the newest page first)', () => {
    const data = thread([message('m3', 3), message('m4', 4)], [message('m1', 1), message('m2', 2), message('m3', 3)]);
    expect(threadMessages(data).map((m) => m._id)).toEqual(['m1', 'm2', 'm3', 'm4']);
  });

  it('takes new messages into its newest page, once', () => {
    queryClient.setQueryData(conversationKeys.messages('c1'), thread([message('m2', 2)], [message('m1', 1)]));
    addToThread(queryClient, 'c1', [message('m3', 3), message('m2', 2)]);
    const cached = queryClient.getQueryData<ThreadData>(conversationKeys.messages('c1'));
    expect(cached?.pages[0].messages.map((m) => m._id)).toEqual(['m2', 'm3']);
    expect(threadMessages(cached).map((m) => m._id)).toEqual(['m1', 'm2', 'm3']);
  });

  it('is not made up when it is not cached', () => {
    addToThread(queryClient, 'c2', [message('m1', 1, 'c2')]);
    expect(queryClient.getQueryData(conversationKeys.messages('c2'))).toBeUndefined();
  });
});
