import { useSyncExternalStore } from 'react';

/** What an outdated desktop app shows: the API's 426 message and where the new version is. */
export interface UpgradeRequired {
  message: string;
  downloadUrl: string | null;
}

let current: UpgradeRequired | null = null;
const listeners = new Set<() => void>();

/** Called by the API client on a 426 `upgrade_required`: from then on the update banner shows. */
export function reportUpgradeRequired(next: UpgradeRequired): void {
  if (current?.message === next.message && current.downloadUrl === next.downloadUrl) return;
  current = next;
  for (const listener of [...listeners]) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The API's request to update the app, or null while it serves this version. */
export function useUpgradeRequired(): UpgradeRequired | null {
  return useSyncExternalStore(subscribe, () => current);
}
