import { EntitySchema, type EntitySchemaColumnOptions } from 'typeorm';
import { dateColumn, idColumn, refColumn } from '../db/columns.js';

/**
 * A conversation between a giver (the initiator) and the person who received (the responder).
 * The identity the recipient sees is part of its key (`pairKey`, see `conversationKey`): an
 * anonymous conversation and a named one between the same two people are never the same
 * conversation, so nothing the recipient can read ties one to the other.
 */
export interface Conversation {
  id: string;
  initiatorId: string;
  responderId: string;
  /** True when the initiator is a gift giver who stays anonymous to the responder. */
  initiatorAnonymous: boolean;
  /** `named:<lower id>:<higher id>`, or `anon:<pseudonym>` for an anonymous giver's conversation. */
  pairKey: string;
  lastMessageId: string | null;
  lastMessageAt: Date;
  createdAt: Date;
}

export const ConversationEntity = new EntitySchema<Conversation>({
  name: 'Conversation',
  tableName: 'conversations',
  columns: {
    id: idColumn,
    initiatorId: { ...refColumn(), name: 'initiator_id' },
    responderId: { ...refColumn(), name: 'responder_id' },
    initiatorAnonymous: { type: 'boolean', default: true, name: 'initiator_anonymous' },
    pairKey: { type: 'varchar', length: 100, name: 'pair_key' },
    lastMessageId: { ...refColumn(true), name: 'last_message_id' },
    lastMessageAt: { ...dateColumn(), name: 'last_message_at' },
    createdAt: { ...dateColumn(), name: 'created_at' },
  },
});

/**
 * The pseudonym an anonymous giver has towards one recipient: random, made once per (giver,
 * recipient), and the only key of their anonymous conversation.
 */
export interface AnonymousPseudonym {
  id: string;
  giverId: string;
  recipientId: string;
  createdAt: Date;
}

export const AnonymousPseudonymEntity = new EntitySchema<AnonymousPseudonym>({
  name: 'AnonymousPseudonym',
  tableName: 'anonymous_pseudonyms',
  columns: {
    id: idColumn,
    giverId: { ...refColumn(), name: 'giver_id' },
    recipientId: { ...refColumn(), name: 'recipient_id' },
    createdAt: { ...dateColumn(), name: 'created_at' },
  },
});

export type MessageType = 'normal' | 'gift';

export interface Message {
  id: string;
  conversationId: string;
  senderId: string;
  text: string;
  messageType: MessageType;
  giftTitle: string | null;
  giftType: 'item' | 'currency' | null;
  giftImg: string | null;
  /** Read by the member who did not send it. */
  read: boolean;
  createdAt: Date;
  /**
   * Unique, and increasing in commit order over the messages of any one member's conversations
   * (the 1763870500000 and 1763872300000 migrations): "everything after message X" is `seq > X.seq`.
   * Null only for a row inserted without one on PostgreSQL, until its COMMIT numbers it.
   */
  seq: number | null;
}

/** A bigint counter column; PostgreSQL hands bigints back as strings. */
const bigintColumn = (options: Partial<EntitySchemaColumnOptions> = {}): EntitySchemaColumnOptions => ({
  type: 'bigint',
  default: 0,
  transformer: {
    to: (v: number | null | undefined) => v,
    from: (v: string | number | null) => (v === null || v === undefined ? v : Number(v)),
  },
  ...options,
});

export const MessageEntity = new EntitySchema<Message>({
  name: 'Message',
  tableName: 'messages',
  columns: {
    id: idColumn,
    conversationId: { ...refColumn(), name: 'conversation_id' },
    senderId: { ...refColumn(), name: 'sender_id' },
    text: { type: 'varchar', length: 2000 },
    messageType: { type: 'varchar', length: 16, default: 'normal', name: 'message_type' },
    giftTitle: { type: 'varchar', length: 255, nullable: true, name: 'gift_title' },
    giftType: { type: 'varchar', length: 16, nullable: true, name: 'gift_type' },
    giftImg: { type: 'varchar', length: 2048, nullable: true, name: 'gift_img' },
    read: { type: 'boolean', default: false },
    createdAt: { ...dateColumn(), name: 'created_at' },
    seq: bigintColumn({ default: undefined, nullable: true }),
  },
});

/** Named counters; `message_seq` numbers the messages. */
export interface Counter {
  name: string;
  value: number;
}

export const CounterEntity = new EntitySchema<Counter>({
  name: 'Counter',
  tableName: 'counters',
  columns: {
    name: { type: 'varchar', length: 64, primary: true },
    value: bigintColumn(),
  },
});
