// The main process, assembled from the electron APIs it is given (`ElectronLike`), so tests drive
// it with fakes of those APIs: single instance, the app:// protocol, security, API headers, the
// window, the tray, notifications and deep links. `index.ts` passes the real electron module.
import type { App, BrowserWindow, Menu, Protocol, Rectangle, Session, Shell, Tray } from 'electron';
import type { UnreadCounts } from '../shared/channels.js';
import type { ApiOrigin } from './api-origin.js';
import { installApiHeaders } from './api-headers.js';
import { deepLinkFromArgv, DEEP_LINK_SCHEME, parseDeepLink } from './deep-links.js';
import { createNotifier, type NotificationClass, type Notifier } from './notifications.js';
import { APP_URL, handleAppProtocol, registerAppScheme } from './protocol.js';
import { appContentSecurityPolicy, installSecurity } from './security.js';
import { createTray, type AppTray } from './tray.js';
import { createMainWindow, revealWindow, type MainWindowDeps, type WindowStateStore } from './window.js';

/** The appId of electron-builder.yml. */
export const APP_USER_MODEL_ID = 'app.giftlink.desktop';

export interface ElectronLike {
  app: Pick<
    App,
    | 'on'
    | 'whenReady'
    | 'quit'
    | 'requestSingleInstanceLock'
    | 'setAsDefaultProtocolClient'
    | 'setBadgeCount'
    | 'getVersion'
    | 'isPackaged'
    | 'setAppUserModelId'
  >;
  protocol: Pick<Protocol, 'registerSchemesAsPrivileged' | 'handle'>;
  session: { defaultSession: Pick<Session, 'webRequest'> };
  shell: Pick<Shell, 'openExternal'>;
  BrowserWindow: MainWindowDeps['BrowserWindow'];
  Tray: new (image: string) => Tray;
  Menu: Pick<typeof Menu, 'buildFromTemplate'>;
  Notification: NotificationClass;
  screen: { getAllDisplays(): Array<{ workArea: Rectangle }> };
}

export interface DesktopOptions {
  api: ApiOrigin;
  /** The public site whose https links open inside the app. */
  siteUrl: string;
  /** out/renderer: the bundled React app. */
  rendererRoot: string;
  /**
   * Where the window opens and may navigate: app://giftlink (default), or electron-vite's dev
   * server in `npm run dev:desktop` (never in a packaged app).
   */
  pageUrl?: string;
  /** out/preload/index.cjs. */
  preload: string;
  /** Path of the tray icon (tray.png, or trayTemplate.png on macOS). */
  trayIcon: string;
  notificationIcon?: string;
  windowState: WindowStateStore;
  loadToken: () => Promise<string | null>;
  platform: NodeJS.Platform;
  argv: readonly string[];
  /**
   * Unpackaged runs (`electron .`, dev:desktop) register giftlink:// to relaunch Electron with the
   * app's path; a packaged app registers itself.
   */
  protocolClientLaunch?: { execPath: string; args: string[] };
  log: (message: string) => void;
  /** Registers the IPC handlers (native's `ipc.ts`) once the window exists. */
  registerIpc?: (context: DesktopContext) => void;
}

export interface DesktopContext {
  window(): BrowserWindow | null;
  showWindow(): BrowserWindow;
  notifier: Notifier;
  setUnreadCounts(counts: UnreadCounts): void;
  /** Opens an in-app route in the window (deep links, tray, notifications). */
  navigate(route: string): void;
}

/** Returns false when another instance runs (this one then quits and hands over its deep link). */
export function startDesktop(electron: ElectronLike, options: DesktopOptions): boolean {
  const { app } = electron;
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return false;
  }
  const pageUrl = (options.pageUrl ?? APP_URL).replace(/\/+$/, '');
  registerAppScheme(electron.protocol);
  const launch = options.protocolClientLaunch;
  if (launch) app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME, launch.execPath, launch.args);
  else app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME);
  // Windows shows notifications only for an app with an AppUserModelID (electron-builder's appId).
  if (options.platform === 'win32') app.setAppUserModelId(APP_USER_MODEL_ID);
  installSecurity(app, { shell: electron.shell, appUrl: pageUrl, log: options.log });

  let win: BrowserWindow | null = null;
  let tray: AppTray | null = null;
  let quitting = false;
  let ready = false;
  /** A route asked for before the window could take it (a launch by deep link). */
  let pendingRoute: string | null = null;

  const showWindow = (): BrowserWindow => {
    if (!win || win.isDestroyed()) {
      const url = `${pageUrl}${pendingRoute ?? '/'}`;
      pendingRoute = null;
      win = createMainWindow({
        BrowserWindow: electron.BrowserWindow,
        workAreas: () => electron.screen.getAllDisplays().map((d) => d.workArea),
        store: options.windowState,
        preload: options.preload,
        url,
        isQuitting: () => quitting,
      });
      win.on('closed', () => (win = null));
    }
    revealWindow(win);
    return win;
  };

  const navigate = (route: string) => {
    if (!ready) {
      pendingRoute = route;
      return;
    }
    const target = showWindow();
    if (target.webContents.isLoading()) target.webContents.once('did-finish-load', () => target.webContents.send('navigate', { route }));
    else target.webContents.send('navigate', { route });
  };

  const openLink = (raw: string) => {
    const link = parseDeepLink(raw, options.siteUrl);
    if (link.kind === 'route') navigate(link.route);
    else if (link.kind === 'external') void electron.shell.openExternal(link.url);
    else options.log(`ignored link ${raw.slice(0, 200)}`);
  };

  // A second launch (Windows/Linux pass a deep link on its command line) focuses this one.
  app.on('second-instance', (_event, argv) => {
    const link = deepLinkFromArgv(argv);
    if (link) openLink(link);
    else if (ready) showWindow();
  });
  // macOS hands deep links over as open-url, possibly before ready.
  app.on('open-url', (event, url) => {
    event.preventDefault();
    openLink(url);
  });
  app.on('before-quit', () => (quitting = true));
  app.on('activate', () => {
    if (ready) showWindow();
  });
  // Hidden windows keep the app alive in the tray; nothing to do when the last one closes.
  app.on('window-all-closed', () => {
    if (quitting) app.quit();
  });

  const launchLink = deepLinkFromArgv(options.argv);
  if (launchLink) openLink(launchLink);

  void app.whenReady().then(() => {
    ready = true;
    handleAppProtocol(electron.protocol, options.rendererRoot, appContentSecurityPolicy(options.api));
    installApiHeaders(electron.session.defaultSession, {
      api: options.api,
      version: app.getVersion(),
      loadToken: options.loadToken,
      log: options.log,
    });
    const notifier = createNotifier({
      Notification: electron.Notification,
      getWindow: () => win,
      showWindow,
      icon: options.notificationIcon,
    });
    tray = createTray({
      Tray: electron.Tray,
      Menu: electron.Menu,
      app,
      icon: options.trayIcon,
      actions: {
        open: () => void showWindow(),
        openRoute: navigate,
        quit: () => {
          quitting = true;
          app.quit();
        },
      },
    });
    const context: DesktopContext = {
      window: () => win,
      showWindow,
      notifier,
      setUnreadCounts: (counts) => tray?.setCounts(counts),
      navigate,
    };
    options.registerIpc?.(context);
    showWindow();
  });
  return true;
}
