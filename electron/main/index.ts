// Minimal desktop shell: one hardened window on the Giftlink site. The desktop issue adds the
// keychain token, tray notifications, the SQLite image cache and native save behind the
// renderer's platform seam. The Electron binary cannot be downloaded on the build machines, so
// this is built and type-checked here, not run.
import { app, BrowserWindow, shell } from 'electron';
import path from 'node:path';
import { isAllowedExternal, isAllowedNavigation } from './security.js';

const SITE = process.env.GIFTLINK_URL ?? 'http://localhost:3000';

function createWindow(): BrowserWindow {
  const win = new BrowserWindow({
    width: 1100,
    height: 800,
    webPreferences: {
      preload: path.join(import.meta.dirname, '../preload/index.mjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
    },
  });
  win.webContents.setWindowOpenHandler(({ url }) => {
    if (isAllowedExternal(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  win.webContents.on('will-navigate', (event, url) => {
    if (!isAllowedNavigation(SITE, url)) event.preventDefault();
  });
  win.webContents.session.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  void win.loadURL(SITE);
  return win;
}

void app.whenReady().then(() => {
  createWindow();
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) createWindow();
  });
});

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});
