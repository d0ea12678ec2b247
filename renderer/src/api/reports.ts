import { useMutation } from '@tanstack/react-query';
import type { CreateReportInput, ReportAnswer } from '../../../api/contract/reports';
import { api } from './client';

export type { CreateReportInput };

/** Reports a message (with `messageId`) or a whole conversation. The answer is only a thank-you. */
export function sendReport(body: CreateReportInput) {
  return api.post<ReportAnswer>('/api/reports', body);
}

export function useSendReport() {
  return useMutation({ mutationFn: (body: CreateReportInput) => sendReport(body) });
}
