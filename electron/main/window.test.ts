import { EventEmitter } from 'node:events';
import type { BrowserWindowConstructorOptions, Rectangle } from 'electron';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createMainWindow,
  DEFAULT_WINDOW,
  restoreWindowState,
  revealWindow,
  windowOptions,
  type MainWindowDeps,
  type WindowState,
} from './window.js';

const screen: Rectangle[] = [{ x: 0, y: 0, width: 1920, height: 1080 }];

describe('window size and position', () => {
  it.each([
    [undefined, DEFAULT_WINDOW],
    ['garbage', DEFAULT_WINDOW],
    [{ width: 'wide' }, DEFAULT_WINDOW],
    [
      { x: 100, y: 80, width: 1200, height: 900, maximized: false },
      { x: 100, y: 80, width: 1200, height: 900, maximized: false },
    ],
    [
      { x: 10, y: 10, width: 100, height: 100, maximized: true },
      { x: 10, y: 10, width: 380, height: 560, maximized: true },
    ],
    // On a monitor that is gone: keep the size, let Electron centre it.
    [
      { x: 3000, y: 100, width: 1000, height: 700, maximized: false },
      { width: 1000, height: 700, maximized: false },
    ],
    [
      { x: 100, y: -900, width: 1000, height: 700, maximized: false },
      { width: 1000, height: 700, maximized: false },
    ],
  ])('%j opens as %j', (saved, expected) => {
    expect(restoreWindowState(saved, screen)).toEqual(expected);
  });

  it('keeps a position on a second display', () => {
    const two = [...screen, { x: 1920, y: 0, width: 1280, height: 1024 }];
    expect(restoreWindowState({ x: 2000, y: 50, width: 900, height: 700, maximized: false }, two)).toMatchObject({ x: 2000, y: 50 });
  });

  it('opens hardened: context isolation, sandbox, no Node in the page', () => {
    const options = windowOptions(DEFAULT_WINDOW, '/out/preload/index.cjs');
    expect(options.webPreferences).toMatchObject({
      preload: '/out/preload/index.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    });
  });
});

/** A fake of the BrowserWindow parts the window module uses. */
class FakeWindow extends EventEmitter {
  static made: FakeWindow[] = [];
  bounds: Rectangle;
  visible = false;
  minimized = false;
  maximized = false;
  focused = false;
  destroyed = false;
  loaded: string[] = [];
  constructor(readonly options: BrowserWindowConstructorOptions) {
    super();
    this.bounds = { x: options.x ?? 0, y: options.y ?? 0, width: options.width ?? 0, height: options.height ?? 0 };
    FakeWindow.made.push(this);
  }
  isDestroyed = () => this.destroyed;
  isMinimized = () => this.minimized;
  isMaximized = () => this.maximized;
  isVisible = () => this.visible;
  getBounds = () => this.bounds;
  getNormalBounds = () => this.bounds;
  maximize = () => void (this.maximized = true);
  restore = () => void (this.minimized = false);
  show = () => void (this.visible = true);
  hide = () => void (this.visible = false);
  focus = () => void (this.focused = true);
  loadURL = async (url: string) => void this.loaded.push(url);
  /** Emits `close`; true when the window really closes. */
  close(): boolean {
    let prevented = false;
    this.emit('close', { preventDefault: () => (prevented = true) });
    return !prevented;
  }
}

describe('the main window', () => {
  let saved: WindowState | undefined;
  let quitting = false;
  const open = () =>
    createMainWindow({
      BrowserWindow: FakeWindow as unknown as MainWindowDeps['BrowserWindow'],
      workAreas: () => screen,
      store: { get: () => saved, set: (state) => void (saved = state) },
      preload: '/out/preload/index.cjs',
      url: 'app://giftlink/',
      isQuitting: () => quitting,
    }) as unknown as FakeWindow;

  beforeEach(() => {
    vi.useFakeTimers();
    saved = undefined;
    quitting = false;
    FakeWindow.made = [];
  });
  afterEach(() => vi.useRealTimers());

  it('opens the app at its saved place and remembers where it moves', () => {
    saved = { x: 50, y: 60, width: 1000, height: 700, maximized: false };
    const win = open();
    expect(win.options).toMatchObject({ x: 50, y: 60, width: 1000, height: 700, show: false });
    expect(win.loaded).toEqual(['app://giftlink/']);
    win.emit('ready-to-show');
    expect(win.visible).toBe(true);
    win.bounds = { x: 200, y: 100, width: 1200, height: 800 };
    win.emit('move');
    win.emit('resize');
    vi.advanceTimersByTime(600);
    expect(saved).toEqual({ x: 200, y: 100, width: 1200, height: 800, maximized: false });
  });

  it('reopens maximized when it was', () => {
    saved = { width: 1000, height: 700, maximized: true };
    expect(open().maximized).toBe(true);
  });

  it('closing hides it to the tray; after Quit it closes', () => {
    const win = open();
    win.emit('ready-to-show');
    expect(win.close()).toBe(false);
    expect(win.visible).toBe(false);
    expect(saved).toMatchObject({ width: 1100, height: 800 });
    quitting = true;
    expect(win.close()).toBe(true);
  });

  it('reveal restores, shows and focuses', () => {
    const win = open();
    win.minimized = true;
    revealWindow(win as unknown as Electron.BrowserWindow);
    expect(win).toMatchObject({ minimized: false, visible: true, focused: true });
  });
});
