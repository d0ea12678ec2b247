// The desktop IPC channel names, free of any import so the sandboxed preload can carry them
// without bundling zod. Schemas for each channel live in `channels.ts`.

/** Renderer → main calls (`ipcRenderer.invoke` / `ipcMain.handle`). */
export const INVOKE_CHANNELS = [
  'token:get',
  'token:set',
  'images:get',
  'images:put',
  'images:clear',
  'save-file',
  'open-url',
  'notify',
  'notifications:permission',
  'unread-counts',
] as const;

/** Main → renderer events (`webContents.send` / `ipcRenderer.on`). */
export const EVENT_CHANNELS = ['navigate', 'notification-click'] as const;

export type InvokeChannel = (typeof INVOKE_CHANNELS)[number];
export type EventChannel = (typeof EVENT_CHANNELS)[number];

/** The origin the bundled renderer is served from (`protocol.handle('app', …)`). */
export const APP_ORIGIN = 'app://giftlink';
