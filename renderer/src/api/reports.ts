import { useMutation } from '@tanstack/react-query';
import type { CreateReportInput } from '../../../api/contract/reports';
import { call } from './client';

export type { CreateReportInput };

/** Reports a message (with `messageId`) or a whole conversation. The answer is only a thank-you. */
export function sendReport(body: CreateReportInput) {
  return call('POST /api/reports', { body });
}

export function useSendReport() {
  return useMutation({ mutationFn: (body: CreateReportInput) => sendReport(body) });
}
