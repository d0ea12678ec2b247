import { describe, expect, it } from 'vitest';
import type { MessageView } from './api/types';
import { PREVIEW_LENGTH, inboxPreview, mergeMessages, truncatePreview } from './messageText';

describe('truncatePreview', () => {
  it('leaves a message of up to 69 characters as it is', () => {
    const text = 'x'.repeat(PREVIEW_LENGTH);
    expect(truncatePreview(text)).toBe(text);
    expect(truncatePreview('Thank you so much!')).toBe('Thank you so much!');
  });

  it('cuts a longer message at the last word boundary and adds an ellipsis', () => {
    const text = 'Thank you so much for the gift, it really made my day and I will use it for the trip';
    const preview = truncatePreview(text);
    expect(preview).toBe('Thank you so much for the gift, it really made my day and I will use…');
    expect(preview.length).toBeLessThanOrEqual(PREVIEW_LENGTH + 1);
    expect(text.startsWith(preview.slice(0, -1))).toBe(true);
  });

  it('keeps a word that ends exactly at the limit', () => {
    const text = `${'a'.repeat(PREVIEW_LENGTH)} more words`;
    expect(truncatePreview(text)).toBe(`${'a'.repeat(PREVIEW_LENGTH)}…`);
  });

  it('cuts a single long word at the limit', () => {
    expect(truncatePreview('b'.repeat(100))).toBe(`${'b'.repeat(PREVIEW_LENGTH)}…`);
  });

  it('drops punctuation before the ellipsis and flattens line breaks', () => {
    expect(truncatePreview('Hello,\nworld! '.repeat(10))).toMatch(/^Hello, world! Hello, world!.*[a-z]…$/);
    expect(truncatePreview('one two', 5)).toBe('one…');
  });
});

const message = (id: string, seq: number): MessageView => ({
  _id: id,
  conversationId: 'c1',
  senderUserId: 'u1',
  mine: false,
  text: id,
  messageType: 'normal',
  giftDetails: null,
  read: false,
  createdAt: new Date(seq * 1000).toISOString(),
  seq,
});

describe('mergeMessages', () => {
  it('adds new messages in seq order and drops ones already held', () => {
    const current = [message('a', 1), message('c', 3)];
    const merged = mergeMessages(current, [message('d', 4), message('b', 2), message('c', 3), message('d', 4)]);
    expect(merged.map((m) => m._id)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('returns the same array when nothing is new', () => {
    const current = [message('a', 1)];
    expect(mergeMessages(current, [message('a', 1)])).toBe(current);
  });
});

describe('inboxPreview', () => {
  it("prefixes the reader's own text messages with 'You:'", () => {
    expect(inboxPreview({ text: 'See you soon', mine: true, messageType: 'normal' })).toBe('You: See you soon');
    expect(inboxPreview({ text: 'Thank you!', mine: false, messageType: 'normal' })).toBe('Thank you!');
  });

  it('shows a gift message as written for its reader, never prefixed', () => {
    expect(inboxPreview({ text: 'You gave $5.00', mine: true, messageType: 'gift' })).toBe('You gave $5.00');
    expect(inboxPreview({ text: 'You received a gift of $5.00!', mine: false, messageType: 'gift' })).toBe('You received a gift of $5.00!');
  });

  it('says so when there is no message yet', () => {
    expect(inboxPreview(null)).toBe('No messages yet');
  });
});
