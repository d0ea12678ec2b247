// The desktop preload (sandboxed, built as a classic CommonJS script): exposes the named-channel
// IPC bridge as `window.giftlinkDesktopIpc`. The page builds its `Platform` from it with
// `makeDesktopPlatform` (./platform.ts): Blobs do not survive contextBridge (electron/electron
// #27364, #46901), so they become bytes on the page's side. Only 'electron' and pure modules here.
import { contextBridge, ipcRenderer } from 'electron';
import { makeIpcBridge } from './bridge.js';

contextBridge.exposeInMainWorld('giftlinkDesktopIpc', makeIpcBridge(ipcRenderer));
