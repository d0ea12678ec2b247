// The only thing the preload hands to the page: `invoke` and `on` limited to the named channels of
// the IPC contract. The page never gets ipcRenderer or an IPC event object; the main process
// checks the sender and parses every payload anyway.
import type { IpcRenderer } from 'electron';
import type { DesktopIpcBridge } from '../../renderer/src/platform/types';
import { EVENT_CHANNELS, INVOKE_CHANNELS } from '../shared/names.js';

export type IpcRendererLike = Pick<IpcRenderer, 'invoke' | 'on' | 'removeListener'>;

export function makeIpcBridge(ipcRenderer: IpcRendererLike): DesktopIpcBridge {
  return {
    invoke(channel, payload) {
      if (!(INVOKE_CHANNELS as readonly string[]).includes(channel)) {
        return Promise.reject(new Error(`Unknown channel: ${String(channel).slice(0, 64)}`));
      }
      return ipcRenderer.invoke(channel, payload);
    },
    on(channel, listener) {
      if (!(EVENT_CHANNELS as readonly string[]).includes(channel)) {
        throw new Error(`Unknown channel: ${String(channel).slice(0, 64)}`);
      }
      const forward = (_event: unknown, payload: unknown) => listener(payload);
      ipcRenderer.on(channel, forward);
      return () => {
        ipcRenderer.removeListener(channel, forward);
      };
    },
  };
}
