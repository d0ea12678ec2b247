// The desktop binding of the renderer's platform contract is exposed here with contextBridge
// (named functions per area, never ipcRenderer itself). For now it only marks the desktop shell.
import { contextBridge } from 'electron';

contextBridge.exposeInMainWorld('giftlinkShell', { kind: 'desktop' as const });
