// The app window: hardened web preferences, size and position remembered (electron-store, through
// the small `WindowStateStore` seam), and closing hides it (tray on Windows/Linux, dock on macOS)
// unless the app is quitting.
import type { BrowserWindow, BrowserWindowConstructorOptions, Rectangle } from 'electron';

export interface WindowState {
  x?: number;
  y?: number;
  width: number;
  height: number;
  maximized: boolean;
}

export interface WindowStateStore {
  get(): WindowState | undefined;
  set(state: WindowState): void;
}

export const DEFAULT_WINDOW: WindowState = { width: 1100, height: 800, maximized: false };
export const MIN_WIDTH = 380;
export const MIN_HEIGHT = 560;

function isNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/**
 * The bounds to open with: the saved ones when they are sane and still overlap a display (a
 * monitor may have been unplugged), else the default size, centred by Electron.
 */
export function restoreWindowState(saved: unknown, workAreas: readonly Rectangle[]): WindowState {
  if (typeof saved !== 'object' || saved === null) return DEFAULT_WINDOW;
  const s = saved as Record<string, unknown>;
  if (!isNumber(s.width) || !isNumber(s.height)) return DEFAULT_WINDOW;
  const width = Math.max(MIN_WIDTH, Math.round(s.width));
  const height = Math.max(MIN_HEIGHT, Math.round(s.height));
  const maximized = s.maximized === true;
  if (!isNumber(s.x) || !isNumber(s.y)) return { width, height, maximized };
  const x = Math.round(s.x);
  const y = Math.round(s.y);
  // At least 100 px of the window's top strip on some display, so it can be grabbed.
  const visible = workAreas.some((a) => x + width - 100 >= a.x && x + 100 <= a.x + a.width && y >= a.y - 10 && y + 40 <= a.y + a.height);
  return visible ? { x, y, width, height, maximized } : { width, height, maximized };
}

export function windowOptions(state: WindowState, preload: string): BrowserWindowConstructorOptions {
  return {
    ...(state.x !== undefined && state.y !== undefined ? { x: state.x, y: state.y } : {}),
    width: state.width,
    height: state.height,
    minWidth: MIN_WIDTH,
    minHeight: MIN_HEIGHT,
    show: false,
    title: 'Giftlink',
    backgroundColor: '#ffffff',
    webPreferences: {
      preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: true,
    },
  };
}

export interface MainWindowDeps {
  BrowserWindow: new (options: BrowserWindowConstructorOptions) => BrowserWindow;
  workAreas: () => Rectangle[];
  store: WindowStateStore;
  preload: string;
  /** The page to open: app://giftlink/ or a deep-linked route under it. */
  url: string;
  /** True once Quit was chosen: closing then really closes. */
  isQuitting: () => boolean;
}

export function createMainWindow(deps: MainWindowDeps): BrowserWindow {
  const state = restoreWindowState(deps.store.get(), deps.workAreas());
  const win = new deps.BrowserWindow(windowOptions(state, deps.preload));
  if (state.maximized) win.maximize();
  win.once('ready-to-show', () => win.show());

  let timer: ReturnType<typeof setTimeout> | undefined;
  const save = () => {
    if (win.isDestroyed() || win.isMinimized()) return;
    const maximized = win.isMaximized();
    const bounds = maximized ? win.getNormalBounds() : win.getBounds();
    deps.store.set({ ...bounds, maximized });
  };
  const saveSoon = () => {
    clearTimeout(timer);
    timer = setTimeout(save, 500);
  };
  win.on('resize', saveSoon);
  win.on('move', saveSoon);
  win.on('close', (event) => {
    clearTimeout(timer);
    save();
    if (deps.isQuitting()) return;
    // Stay in the tray (dock on macOS) so notifications keep arriving; Quit really quits.
    event.preventDefault();
    win.hide();
  });
  void win.loadURL(deps.url);
  return win;
}

/** Brings the window to the front (a second launch, the tray, a notification click). */
export function revealWindow(win: BrowserWindow): void {
  if (win.isMinimized()) win.restore();
  if (!win.isVisible()) win.show();
  win.focus();
}
