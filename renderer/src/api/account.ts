import { useMutation } from '@tanstack/react-query';
import { exportFileName } from '../../../api/contract/texts';
import type { DeleteAccountRequest } from '../../../api/contract/account';
import { platform } from '../platform';
import { call } from './client';

/** The user's data (GET /api/account/export), as the JSON file the server names. */
export function downloadAccountExport(signal?: AbortSignal) {
  return call('GET /api/account/export', { signal });
}

/** Closes the account (POST /api/account/delete); the server ends every session with it. */
export function deleteAccount(body: DeleteAccountRequest) {
  return call('POST /api/account/delete', { body });
}

/** Settings → Download my data: fetches the export and offers it as a file (a download, or the desktop's save dialog). */
export function useDownloadMyData() {
  return useMutation({
    mutationFn: async () => {
      const data = await downloadAccountExport();
      const blob = new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' });
      await platform.saveFile(exportFileName(data.profile.username, new Date(data.exportedAt)), blob);
    },
  });
}

/** Settings → Delete my account. No cache to update: the caller signs out locally and leaves. */
export function useDeleteAccount() {
  return useMutation({ mutationFn: deleteAccount });
}
