import { EventEmitter } from 'node:events';
import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it } from 'vitest';
import { createTray, trayMenuTemplate, trayTooltip, type TrayDeps } from './tray.js';

const labels = (template: MenuItemConstructorOptions[]) => template.map((item) => item.label ?? `-${item.type}-`);

describe('tray', () => {
  it.each([
    [{ messages: 0, notifications: 0 }, 'Giftlink', ['Open Giftlink', '-separator-', 'Messages', 'Notifications', '-separator-', 'Quit']],
    [
      { messages: 3, notifications: 2 },
      'Giftlink: 3 unread messages, 2 notifications',
      ['Open Giftlink', '-separator-', 'Messages (3)', 'Notifications (2)', '-separator-', 'Quit'],
    ],
    [
      { messages: 1, notifications: 0 },
      'Giftlink: 1 unread message',
      ['Open Giftlink', '-separator-', 'Messages (1)', 'Notifications', '-separator-', 'Quit'],
    ],
    [
      { messages: 0, notifications: 1 },
      'Giftlink: 1 notification',
      ['Open Giftlink', '-separator-', 'Messages', 'Notifications (1)', '-separator-', 'Quit'],
    ],
  ])('%j → tooltip %s', (counts, tooltip, menu) => {
    expect(trayTooltip(counts)).toBe(tooltip);
    expect(labels(trayMenuTemplate(counts, { open() {}, openRoute() {}, quit() {} }))).toEqual(menu);
  });

  it('menu items open the app, its pages, or quit', () => {
    const calls: string[] = [];
    const template = trayMenuTemplate(
      { messages: 1, notifications: 1 },
      {
        open: () => calls.push('open'),
        openRoute: (route) => calls.push(route),
        quit: () => calls.push('quit'),
      },
    );
    for (const item of template) (item.click as (() => void) | undefined)?.();
    expect(calls).toEqual(['open', '/conversations', '/notifications', 'quit']);
  });

  it('shows live counts on the tray and the badge', () => {
    const trays: FakeTray[] = [];
    class FakeTray extends EventEmitter {
      tooltip = '';
      menu: MenuItemConstructorOptions[] = [];
      destroyed = false;
      constructor(readonly image: unknown) {
        super();
        trays.push(this);
      }
      setToolTip(text: string) {
        this.tooltip = text;
      }
      setContextMenu(menu: MenuItemConstructorOptions[]) {
        this.menu = menu;
      }
      destroy() {
        this.destroyed = true;
      }
    }
    const badges: number[] = [];
    let opened = 0;
    const tray = createTray({
      Tray: FakeTray as unknown as TrayDeps['Tray'],
      // A fake Menu whose "menu" is its template, so the test reads the labels.
      Menu: { buildFromTemplate: (template) => template as unknown as Electron.Menu },
      app: { setBadgeCount: (n: number) => (badges.push(n), true) },
      icon: '/icons/tray.png',
      actions: { open: () => opened++, openRoute() {}, quit() {} },
    });
    const fake = trays[0];
    expect(fake.image).toBe('/icons/tray.png');
    expect(fake.tooltip).toBe('Giftlink');
    tray.setCounts({ messages: 3, notifications: 2 });
    expect(fake.tooltip).toBe('Giftlink: 3 unread messages, 2 notifications');
    expect(labels(fake.menu)).toContain('Messages (3)');
    expect(labels(fake.menu)).toContain('Notifications (2)');
    expect(badges).toEqual([0, 5]);
    fake.emit('click');
    expect(opened).toBe(1);
    tray.destroy();
    expect(fake.destroyed).toBe(true);
  });
});
