import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AlertPreferencesAnswer, PutAlertPreferences } from '../../../api/contract/alerts';
import { api } from './client';

/** Every alert kind with its channels (defaults applied); security kinds locked. */
export function getAlertPreferences(signal?: AbortSignal) {
  return api.get<AlertPreferencesAnswer>('/api/alerts/preferences', { signal });
}

/** Saves the switches named; answers every kind as saved. */
export function putAlertPreferences(body: PutAlertPreferences) {
  return api.put<AlertPreferencesAnswer>('/api/alerts/preferences', body);
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
