// The tray icon: its tooltip and menu show the unread counts the renderer reports over IPC
// (`unread-counts`, from the socket), and the app badge shows their sum where the OS has one.
import type { App, Menu, MenuItemConstructorOptions, Tray } from 'electron';
import type { UnreadCounts } from '../shared/channels.js';

export const TRAY_TEXTS = {
  app: 'Giftlink',
  open: 'Open Giftlink',
  messages: 'Messages',
  notifications: 'Notifications',
  quit: 'Quit',
} as const;

export interface TrayActions {
  open(): void;
  openRoute(route: string): void;
  quit(): void;
}

const counted = (label: string, n: number) => (n > 0 ? `${label} (${n})` : label);

export function trayTooltip(counts: UnreadCounts): string {
  const parts: string[] = [];
  if (counts.messages > 0) parts.push(`${counts.messages} unread message${counts.messages === 1 ? '' : 's'}`);
  if (counts.notifications > 0) parts.push(`${counts.notifications} notification${counts.notifications === 1 ? '' : 's'}`);
  return parts.length ? `${TRAY_TEXTS.app}: ${parts.join(', ')}` : TRAY_TEXTS.app;
}

export function trayMenuTemplate(counts: UnreadCounts, actions: TrayActions): MenuItemConstructorOptions[] {
  return [
    { label: TRAY_TEXTS.open, click: () => actions.open() },
    { type: 'separator' },
    { label: counted(TRAY_TEXTS.messages, counts.messages), click: () => actions.openRoute('/conversations') },
    { label: counted(TRAY_TEXTS.notifications, counts.notifications), click: () => actions.openRoute('/notifications') },
    { type: 'separator' },
    { label: TRAY_TEXTS.quit, click: () => actions.quit() },
  ];
}

export interface TrayDeps {
  /** Electron's Tray; given a path, it picks the @2x and macOS Template variants beside it. */
  Tray: new (image: string) => Tray;
  Menu: Pick<typeof Menu, 'buildFromTemplate'>;
  app: Pick<App, 'setBadgeCount'>;
  icon: string;
  actions: TrayActions;
}

export interface AppTray {
  setCounts(counts: UnreadCounts): void;
  destroy(): void;
}

export function createTray(deps: TrayDeps): AppTray {
  const tray = new deps.Tray(deps.icon);
  const render = (counts: UnreadCounts) => {
    tray.setToolTip(trayTooltip(counts));
    tray.setContextMenu(deps.Menu.buildFromTemplate(trayMenuTemplate(counts, deps.actions)));
    deps.app.setBadgeCount(counts.messages + counts.notifications);
  };
  tray.on('click', () => deps.actions.open());
  render({ messages: 0, notifications: 0 });
  return { setCounts: render, destroy: () => tray.destroy() };
}
