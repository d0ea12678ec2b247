import { EventEmitter } from 'node:events';
import type { BrowserWindow, NotificationConstructorOptions } from 'electron';
import { describe, expect, it } from 'vitest';
import { clickMessages, createNotifier, type NotificationClass } from './notifications.js';

/** Fakes of Electron's Notification (records what was shown) and of a BrowserWindow. */
const shown: FakeNotification[] = [];
class FakeNotification extends EventEmitter {
  static supported = true;
  static isSupported() {
    return FakeNotification.supported;
  }
  visible = false;
  constructor(readonly options: NotificationConstructorOptions) {
    super();
  }
  show() {
    this.visible = true;
    shown.push(this);
  }
}

class FakeWindow extends EventEmitter {
  focused = false;
  visible = true;
  sent: Array<[string, unknown]> = [];
  webContents = { send: (channel: string, payload: unknown) => this.sent.push([channel, payload]) };
  isDestroyed = () => false;
  isVisible = () => this.visible;
  isFocused = () => this.focused;
}

function setup(window: FakeWindow | null) {
  shown.length = 0;
  let current = window;
  const reveals: string[] = [];
  const notifier = createNotifier({
    Notification: FakeNotification as unknown as NotificationClass,
    getWindow: () => current as unknown as BrowserWindow | null,
    showWindow: () => {
      current ??= new FakeWindow();
      current.visible = true;
      current.focused = true;
      reveals.push('shown');
      return current as unknown as BrowserWindow;
    },
  });
  return { notifier, reveals, window: () => current };
}

describe('native notifications', () => {
  it('are shown only while the window is not focused', () => {
    const win = new FakeWindow();
    const { notifier } = setup(win);
    win.focused = true;
    expect(notifier.show({ title: 'New message', body: 'Hi' })).toBe(false);
    expect(shown).toHaveLength(0);
    win.focused = false;
    expect(notifier.show({ title: 'New message', body: 'Hi' })).toBe(true);
    expect(shown[0].options).toMatchObject({ title: 'New message', body: 'Hi' });
    win.focused = true;
    win.visible = false;
    expect(notifier.show({ title: 'Gift received', body: 'You received $5.00' })).toBe(true);
  });

  it('are not shown where the OS has none', () => {
    const { notifier } = setup(null);
    FakeNotification.supported = false;
    try {
      expect(notifier.show({ title: 'x', body: 'y' })).toBe(false);
    } finally {
      FakeNotification.supported = true;
    }
  });

  it('a click focuses the window and opens the conversation', () => {
    const win = new FakeWindow();
    const { notifier, reveals } = setup(win);
    notifier.show({ title: 'New message', body: 'Hi', tag: 'message:42', route: '/messages/c1' });
    shown[0].emit('click');
    expect(reveals).toEqual(['shown']);
    expect(win.sent).toEqual([
      ['notification-click', { tag: 'message:42' }],
      ['navigate', { route: '/messages/c1' }],
    ]);
  });

  it('a click with the window closed makes one and routes there', () => {
    const { notifier, window } = setup(null);
    notifier.show({ title: 'Gift received', body: 'Someone sent you a gift', route: '/notifications' });
    shown[0].emit('click');
    expect((window() as FakeWindow).sent).toEqual([['navigate', { route: '/notifications' }]]);
  });

  it.each([
    [{ title: 't', body: 'b' }, []],
    [{ title: 't', body: 'b', tag: 'x' }, [['notification-click', { tag: 'x' }]]],
    [{ title: 't', body: 'b', route: '/notifications' }, [['navigate', { route: '/notifications' }]]],
  ])('click on %j sends %j', (request, expected) => {
    expect(clickMessages(request)).toEqual(expected);
  });
});
