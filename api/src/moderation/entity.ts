import { EntitySchema } from 'typeorm';
import { dateColumn, idColumn, refColumn } from '../db/columns.js';
import type { ReportReason } from '../../contract/reports.js';

/** One reported message as it read when it was reported. */
export interface ReportedMessage {
  messageId: string;
  senderId: string;
  text: string;
  createdAt: string;
}

export interface Report {
  id: string;
  reporterId: string;
  /** The other member of the conversation (a message report: the message's sender). Moderators only. */
  reportedId: string;
  conversationId: string;
  messageId: string | null;
  reason: ReportReason;
  note: string | null;
  /** JSON of `ReportedMessage[]`: the text at the time of reporting. */
  content: string;
  status: 'open' | 'resolved';
  createdAt: Date;
  resolvedAt: Date | null;
}

export const ReportEntity = new EntitySchema<Report>({
  name: 'Report',
  tableName: 'reports',
  columns: {
    id: idColumn,
    reporterId: { ...refColumn(), name: 'reporter_id' },
    reportedId: { ...refColumn(), name: 'reported_id' },
    conversationId: { ...refColumn(), name: 'conversation_id' },
    messageId: { ...refColumn(true), name: 'message_id' },
    reason: { type: 'varchar', length: 16 },
    note: { type: 'varchar', length: 500, nullable: true },
    content: { type: 'text' },
    status: { type: 'varchar', length: 16, default: 'open' },
    createdAt: { ...dateColumn(), name: 'created_at' },
    resolvedAt: { ...dateColumn(true), name: 'resolved_at' },
  },
});
