// The desktop app's entry: the real electron module and electron-store handed to `startDesktop`.
// Everything with behaviour lives in the modules it assembles (tested there with fakes of the
// electron APIs); this file only reads the build-time constants and the app's paths.
import * as electron from 'electron';
import Store from 'electron-store';
import path from 'node:path';
import { apiOriginOf, type ApiOrigin } from './api-origin.js';
import { startDesktop, type DesktopContext } from './desktop.js';
import { IMAGE_CACHE_FILE, openImageCache } from './image-cache.js';
import { registerIpcHandlers } from './ipc.js';
import { createKeychain, loadKeytar } from './keychain.js';
import { saveFile } from './save.js';
import type { WindowState } from './window.js';
import { APP_ORIGIN } from '../shared/names.js';

declare const __GIFTLINK_API_URL__: string | undefined;
declare const __GIFTLINK_SITE_URL__: string | undefined;

const { app, dialog, ipcMain, Notification, safeStorage, shell } = electron;
const log = (message: string) => console.warn(`[giftlink] ${message}`);

let api: ApiOrigin;
try {
  api = apiOriginOf(typeof __GIFTLINK_API_URL__ === 'string' ? __GIFTLINK_API_URL__ : undefined, app.isPackaged);
} catch (error) {
  // A release built against an http API would send tokens in the clear: refuse to start.
  dialog.showErrorBox('Giftlink', error instanceof Error ? error.message : String(error));
  app.exit(1);
  throw error;
}

const here = import.meta.dirname;
const icons = app.isPackaged ? path.join(process.resourcesPath, 'icons') : path.join(here, '../../resources/icons');
const trayIcon = path.join(icons, process.platform === 'darwin' ? 'trayTemplate.png' : 'tray.png');

const windowStore = new Store<{ window?: WindowState }>({ name: 'window-state' });
const appStore = new Store({ name: 'giftlink' });
const keychainReady = loadKeytar().then((keytar) =>
  createKeychain({ keytar, safeStorage, store: appStore, platform: process.platform, log: (m, e) => log(`${m} ${e ?? ''}`) }),
);

/** electron-vite's dev server in `npm run dev:desktop`; a packaged app always serves app://giftlink. */
const devServer = !app.isPackaged ? process.env.ELECTRON_RENDERER_URL : undefined;

const keychain = {
  loadToken: () => keychainReady.then((k) => k.loadToken()),
  saveToken: (token: string) => keychainReady.then((k) => k.saveToken(token)),
  clearToken: () => keychainReady.then((k) => k.clearToken()),
};

/** native's IPC handlers (electron/main/ipc.ts), given the shell's window, notifier and tray. */
function registerIpc(context: DesktopContext): void {
  const imageCache = openImageCache({
    file: path.join(app.getPath('userData'), IMAGE_CACHE_FILE),
    onError: (message, cause) => log(`${message} ${String(cause)}`),
  });
  registerIpcHandlers(ipcMain, {
    isOurWindow: (sender) => sender === context.window()?.webContents,
    allowedOrigins: devServer ? [APP_ORIGIN, new URL(devServer).origin] : [APP_ORIGIN],
    keychain,
    imageCache,
    saveFile: (name, bytes) =>
      saveFile(
        {
          showSaveDialog: (options) => {
            const win = context.window();
            return win ? dialog.showSaveDialog(win, options) : dialog.showSaveDialog(options);
          },
          defaultDir: app.getPath('downloads'),
        },
        name,
        bytes,
      ),
    openExternal: (url) => shell.openExternal(url),
    notify: (request) => context.notifier.show(request),
    notificationsSupported: () => Notification.isSupported(),
    onUnreadCounts: (counts) => context.setUnreadCounts(counts),
    log: (message, details) => log(`${message} ${JSON.stringify(details)}`),
  });
  app.on('will-quit', () => imageCache.close());
}

startDesktop(electron, {
  api,
  siteUrl: typeof __GIFTLINK_SITE_URL__ === 'string' ? __GIFTLINK_SITE_URL__ : api.http,
  rendererRoot: path.join(here, '../renderer'),
  pageUrl: devServer,
  preload: path.join(here, '../preload/index.cjs'),
  trayIcon,
  notificationIcon: path.join(icons, '256x256.png'),
  windowState: { get: () => windowStore.get('window'), set: (state) => windowStore.set('window', state) },
  loadToken: keychain.loadToken,
  platform: process.platform,
  argv: process.argv,
  protocolClientLaunch:
    process.defaultApp && process.argv[1] ? { execPath: process.execPath, args: [path.resolve(process.argv[1])] } : undefined,
  log,
  registerIpc,
});
