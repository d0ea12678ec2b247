import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PutAlertPreferences } from '../../../api/contract/alerts';
import { call } from './client';

/** Every alert kind with its channels (defaults applied); security kinds locked. */
export function getAlertPreferences(signal?: AbortSignal) {
  return call('GET /api/alerts/preferences', { signal });
}

/** Saves the switches named; answers every kind as saved. */
export function putAlertPreferences(body: PutAlertPreferences) {
  return call('PUT /api/alerts/preferences', { body });
}

// ---- the query cache ----------------------------------------------------------------------------

export const alertKeys = {
  preferences: ['alert-preferences'] as const,
};

export function useAlertPreferencesQuery() {
  return useQuery({ queryKey: alertKeys.preferences, queryFn: ({ signal }) => getAlertPreferences(signal) });
}

export function useSaveAlertPreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: putAlertPreferences,
    onSuccess: (answer) => queryClient.setQueryData(alertKeys.preferences, answer),
  });
}
