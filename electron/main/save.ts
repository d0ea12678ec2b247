// Native save: the page offers bytes and a suggested name; the main process asks where with the
// system save dialog and writes the file itself. Cancel writes nothing. The page never picks the
// path: only the base name of its suggestion is used, cleaned of characters no OS accepts.
import type { FileFilter, SaveDialogOptions, SaveDialogReturnValue } from 'electron';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';

export interface SaveDeps {
  /** `(options) => dialog.showSaveDialog(window, options)`. */
  showSaveDialog: (options: SaveDialogOptions) => Promise<SaveDialogReturnValue>;
  /** Where the dialog opens, e.g. app.getPath('downloads'). */
  defaultDir: string;
}

const FILTERS: Record<string, FileFilter> = {
  '.png': { name: 'PNG image', extensions: ['png'] },
  '.csv': { name: 'CSV file', extensions: ['csv'] },
};

/** A safe default file name from the page's suggestion (never a path). */
export function safeFileName(name: string): string {
  const base = name.split(/[/\\]/).pop() ?? '';
  const cleaned = base
    .replace(/[<>:"|?*]/g, '-')
    .replace(/\p{Cc}/gu, '')
    .replace(/^[.\s]+|[.\s]+$/g, '')
    .slice(0, 200);
  return cleaned || 'giftlink.png';
}

/** Shows the save dialog and writes `bytes` where the user chose; `saved: false` on cancel. */
export async function saveFile(deps: SaveDeps, name: string, bytes: Uint8Array): Promise<{ saved: boolean }> {
  const fileName = safeFileName(name);
  const filter = FILTERS[path.extname(fileName).toLowerCase()];
  const result = await deps.showSaveDialog({
    title: 'Save',
    defaultPath: path.join(deps.defaultDir, fileName),
    filters: filter ? [filter, { name: 'All files', extensions: ['*'] }] : [{ name: 'All files', extensions: ['*'] }],
    properties: ['createDirectory', 'showOverwriteConfirmation'],
  });
  if (result.canceled || !result.filePath) return { saved: false };
  await writeFile(result.filePath, bytes);
  return { saved: true };
}
