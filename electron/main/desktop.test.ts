// The main process assembled with fakes of the electron APIs it is given (never of our modules).
import { EventEmitter } from 'node:events';
import type { BrowserWindowConstructorOptions, MenuItemConstructorOptions, NotificationConstructorOptions } from 'electron';
import { describe, expect, it } from 'vitest';
import { startDesktop, type DesktopContext, type DesktopOptions, type ElectronLike } from './desktop.js';

class FakeWebContents extends EventEmitter {
  sent: Array<[string, unknown]> = [];
  loading = false;
  send = (channel: string, payload: unknown) => void this.sent.push([channel, payload]);
  isLoading = () => this.loading;
}

class FakeWindow extends EventEmitter {
  static made: FakeWindow[] = [];
  webContents = new FakeWebContents();
  visible = false;
  focused = false;
  destroyed = false;
  url = '';
  constructor(readonly options: BrowserWindowConstructorOptions) {
    super();
    FakeWindow.made.push(this);
  }
  isDestroyed = () => this.destroyed;
  isMinimized = () => false;
  isMaximized = () => false;
  isVisible = () => this.visible;
  isFocused = () => this.focused;
  getBounds = () => ({ x: 0, y: 0, width: 1100, height: 800 });
  getNormalBounds = () => this.getBounds();
  maximize() {}
  restore() {}
  show = () => void (this.visible = true);
  hide = () => void (this.visible = false);
  focus = () => void (this.focused = true);
  loadURL = async (url: string) => void (this.url = url);
}

class FakeTray extends EventEmitter {
  static last: FakeTray;
  tooltip = '';
  menu: MenuItemConstructorOptions[] = [];
  constructor() {
    super();
    FakeTray.last = this;
  }
  setToolTip = (text: string) => void (this.tooltip = text);
  setContextMenu = (menu: MenuItemConstructorOptions[]) => void (this.menu = menu);
  destroy() {}
}

class FakeNotification extends EventEmitter {
  static shown: FakeNotification[] = [];
  static isSupported = () => true;
  constructor(readonly options: NotificationConstructorOptions) {
    super();
  }
  show = () => void FakeNotification.shown.push(this);
}

function fakeElectron(lock = true) {
  const app = Object.assign(new EventEmitter(), {
    quits: 0,
    badge: 0,
    protocolClients: [] as string[],
    isPackaged: false,
    requestSingleInstanceLock: () => lock,
    quit: () => void app.quits++,
    whenReady: () => Promise.resolve(),
    userModelIds: [] as string[],
    setAsDefaultProtocolClient: (scheme: string, ...launch: unknown[]) => (app.protocolClients.push([scheme, ...launch].join(' ')), true),
    setAppUserModelId: (id: string) => void app.userModelIds.push(id),
    setBadgeCount: (n: number) => ((app.badge = n), true),
    getVersion: () => '0.1.0',
  });
  const schemes: string[] = [];
  const handled: string[] = [];
  const webRequestFilters: Array<{ urls: string[] }> = [];
  const opened: string[] = [];
  FakeWindow.made = [];
  FakeNotification.shown = [];
  const electron = {
    app,
    protocol: {
      registerSchemesAsPrivileged: (list: Array<{ scheme: string }>) => void schemes.push(...list.map((s) => s.scheme)),
      handle: (scheme: string) => void handled.push(scheme),
    },
    session: {
      defaultSession: { webRequest: { onBeforeSendHeaders: (filter: { urls: string[] }) => void webRequestFilters.push(filter) } },
    },
    shell: { openExternal: async (url: string) => void opened.push(url) },
    BrowserWindow: FakeWindow,
    Tray: FakeTray,
    Menu: { buildFromTemplate: (template: MenuItemConstructorOptions[]) => template },
    Notification: FakeNotification,
    screen: { getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }] },
  };
  return { electron: electron as unknown as ElectronLike, app, schemes, handled, webRequestFilters, opened };
}

function clickTrayItem(label: string): void {
  const item = FakeTray.last.menu.find((entry) => entry.label === label);
  if (!item?.click) throw new Error(`no tray item ${label}`);
  (item.click as () => void)();
}

async function start(lock = true, argv: string[] = ['giftlink'], extra: Partial<DesktopOptions> = {}) {
  const fake = fakeElectron(lock);
  let context: DesktopContext | undefined;
  const started = startDesktop(fake.electron, {
    api: { http: 'https://api.giftlink.example', ws: 'wss://api.giftlink.example' },
    siteUrl: 'https://giftlink.example',
    rendererRoot: '/out/renderer',
    preload: '/out/preload/index.cjs',
    trayIcon: '/icons/tray.png',
    windowState: { get: () => undefined, set: () => {} },
    loadToken: async () => null,
    platform: 'linux',
    argv,
    log: () => {},
    registerIpc: (ctx) => (context = ctx),
    ...extra,
  });
  await new Promise((resolve) => setTimeout(resolve, 0));
  return { ...fake, started, context, window: () => FakeWindow.made.at(-1) };
}

describe('the desktop main process', () => {
  it('a second instance quits at once and leaves the first one alone', async () => {
    const { started, app, schemes, window } = await start(false);
    expect(started).toBe(false);
    expect(app.quits).toBe(1);
    expect(schemes).toEqual([]);
    expect(window()).toBeUndefined();
  });

  it('starts the app: scheme, protocol client, API headers, tray and one window on app://giftlink', async () => {
    const { started, app, schemes, handled, webRequestFilters, window, context } = await start();
    expect(started).toBe(true);
    expect(schemes).toEqual(['app']);
    expect(app.protocolClients).toEqual(['giftlink']);
    expect(handled).toEqual(['app']);
    expect(webRequestFilters).toEqual([{ urls: ['https://api.giftlink.example/*', 'wss://api.giftlink.example/*'] }]);
    expect(FakeWindow.made).toHaveLength(1);
    expect(window()?.url).toBe('app://giftlink/');
    expect(window()?.options.webPreferences).toMatchObject({ preload: '/out/preload/index.cjs', sandbox: true, contextIsolation: true });
    expect(FakeTray.last.tooltip).toBe('Giftlink');
    expect(context).toBeDefined();
  });

  it('registers giftlink:// for an unpackaged run with its launch command, and an AppUserModelID on Windows', async () => {
    const { app } = await start(true, ['electron', '.'], {
      platform: 'win32',
      protocolClientLaunch: { execPath: '/usr/bin/electron', args: ['/work/app'] },
    });
    expect(app.protocolClients).toEqual(['giftlink /usr/bin/electron /work/app']);
    expect(app.userModelIds).toEqual(['app.giftlink.desktop']);
  });

  it('opens at the deep link it was launched with', async () => {
    const { window } = await start(true, ['/opt/Giftlink/giftlink', 'giftlink://wishlist/ana']);
    expect(window()?.url).toBe('app://giftlink/wishlist/ana');
  });

  it('a second launch focuses the window and opens its deep link there', async () => {
    const { app, window } = await start();
    const win = window() as FakeWindow;
    win.visible = false;
    app.emit('second-instance', {}, ['giftlink', 'giftlink://link/ana'], '/');
    expect(FakeWindow.made).toHaveLength(1);
    expect(win).toMatchObject({ visible: true, focused: true });
    expect(win.webContents.sent).toEqual([['navigate', { route: '/link/ana' }]]);
    app.emit('second-instance', {}, ['giftlink'], '/');
    expect(win.webContents.sent).toHaveLength(1);
  });

  it('macOS open-url: app pages inside, other http(s) in the browser, the rest ignored', async () => {
    const { app, window, opened } = await start();
    let prevented = 0;
    const openUrl = (url: string) => app.emit('open-url', { preventDefault: () => prevented++ }, url);
    openUrl('https://giftlink.example/messages/c1');
    openUrl('https://example.com/x');
    openUrl('file:///etc/passwd');
    expect(prevented).toBe(3);
    expect(window()?.webContents.sent).toEqual([['navigate', { route: '/messages/c1' }]]);
    expect(opened).toEqual(['https://example.com/x']);
  });

  it('unread counts reach the tray and the badge; tray items open pages', async () => {
    const { context, app, window } = await start();
    context?.setUnreadCounts({ messages: 3, notifications: 2 });
    expect(FakeTray.last.tooltip).toBe('Giftlink: 3 unread messages, 2 notifications');
    expect(FakeTray.last.menu.map((item) => item.label)).toContain('Messages (3)');
    expect(app.badge).toBe(5);
    clickTrayItem('Messages (3)');
    expect(window()?.webContents.sent).toEqual([['navigate', { route: '/conversations' }]]);
  });

  it('a notification while the window is unfocused opens the conversation on click', async () => {
    const { context, window } = await start();
    const win = window() as FakeWindow;
    win.focused = false;
    expect(context?.notifier.show({ title: 'New message', body: 'You have a new message', route: '/messages/c1' })).toBe(true);
    FakeNotification.shown[0].emit('click');
    expect(win.focused).toBe(true);
    expect(win.webContents.sent).toEqual([['navigate', { route: '/messages/c1' }]]);
  });

  it('closing the window keeps the app in the tray; Quit quits', async () => {
    const { app, window } = await start();
    const win = window() as FakeWindow;
    win.visible = true;
    let prevented = false;
    win.emit('close', { preventDefault: () => (prevented = true) });
    expect(prevented).toBe(true);
    expect(win.visible).toBe(false);
    clickTrayItem('Quit');
    expect(app.quits).toBe(1);
    prevented = false;
    win.emit('close', { preventDefault: () => (prevented = true) });
    expect(prevented).toBe(false);
  });
});
