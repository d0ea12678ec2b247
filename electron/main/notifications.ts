// Native notifications: the renderer asks over IPC (`notify`: title, body, tag, route) and main
// shows one only while the window is not focused (a focused window shows its own). Clicking it
// brings the window back and tells the renderer: `notification-click` with the tag (so the page
// runs its own onClick) and `navigate` with the route (/messages/{conversationId}, /notifications).
import type { BrowserWindow, Notification, NotificationConstructorOptions } from 'electron';
import type { NotifyRequest } from '../shared/channels.js';

export interface NotificationClass {
  new (options: NotificationConstructorOptions): Notification;
  isSupported(): boolean;
}

export interface NotifierDeps {
  Notification: NotificationClass;
  /** The app window, if it exists. */
  getWindow(): BrowserWindow | null;
  /** Shows, restores and focuses the window (making it if it was closed). */
  showWindow(): BrowserWindow;
  icon?: string;
}

export interface Notifier {
  /** Shows `request` natively; false when the window is focused or the OS has no notifications. */
  show(request: NotifyRequest): boolean;
}

/** What a click sends to the renderer, in order. */
export function clickMessages(request: NotifyRequest): Array<['notification-click', { tag: string }] | ['navigate', { route: string }]> {
  const out: Array<['notification-click', { tag: string }] | ['navigate', { route: string }]> = [];
  if (request.tag) out.push(['notification-click', { tag: request.tag }]);
  if (request.route) out.push(['navigate', { route: request.route }]);
  return out;
}

export function createNotifier(deps: NotifierDeps): Notifier {
  // Held until closed or clicked: a notification that is garbage-collected loses its click handler.
  const live = new Set<Notification>();
  return {
    show(request) {
      const win = deps.getWindow();
      if (win && !win.isDestroyed() && win.isVisible() && win.isFocused()) return false;
      if (!deps.Notification.isSupported()) return false;
      const notification = new deps.Notification({ title: request.title, body: request.body, silent: false, icon: deps.icon });
      live.add(notification);
      notification.on('click', () => {
        live.delete(notification);
        const target = deps.showWindow();
        for (const [channel, payload] of clickMessages(request)) target.webContents.send(channel, payload);
      });
      notification.on('close', () => live.delete(notification));
      notification.show();
      return true;
    },
  };
}
