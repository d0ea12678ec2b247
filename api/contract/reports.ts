import { z } from 'zod';
import { idSchema } from './common.js';
import { REPORT_NOTE_MAX_LENGTH, REPORT_REASONS } from './limits.js';
import { REPORT_REASON_REQUIRED } from './texts.js';

export type ReportReason = (typeof REPORT_REASONS)[number];

/**
 * `POST /api/reports`: a member reports a message of the conversation (`messageId`) or the whole
 * conversation. Who is reported is worked out on the server and never answered.
 */
export const CreateReportBody = z.object({
  conversationId: idSchema,
  messageId: idSchema.optional(),
  reason: z.enum(REPORT_REASONS, { error: REPORT_REASON_REQUIRED }),
  note: z.string().trim().max(REPORT_NOTE_MAX_LENGTH, `note: must be at most ${REPORT_NOTE_MAX_LENGTH} characters`).optional(),
});
export type CreateReportInput = z.output<typeof CreateReportBody>;

/**
 * The whole answer to a report: it says nothing about who was reported. 201 for a new report; 200
 * with the first report's id when the reporter had already reported this message (nothing new stored).
 */
export const ReportAnswer = z.object({ ok: z.literal(true), message: z.string(), reportId: z.string() });
export type ReportAnswer = z.infer<typeof ReportAnswer>;
