import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GIFTS_PAUSED } from '../api/contract/texts.js';
import { GIFTS_PAUSED_SAVED, GIFTS_RESUMED_SAVED, PAUSE_GIFTS } from '../api/contract/account-texts.js';
import {
  appTakenOver,
  balanceButton,
  expectNoAxeViolations,
  freshAccount,
  openAs,
  startStories,
  stopStories,
  viewportShot,
  VIEWPORTS,
  type ApiAccount,
  type RunningApp,
} from './harness.js';

let app: RunningApp;
let browser: Browser;
let host: ApiAccount;

beforeAll(async () => {
  [app, browser, host] = await startStories(['hana']);
}, 120_000);
afterAll(() => stopStories(app, browser));

/** The viewport as it is, checked with axe-core like every screenshot of the stories. */
async function shot(page: Page, name: string): Promise<void> {
  await viewportShot(page, name);
  await expectNoAxeViolations(page, name);
}

/** A visitor (nobody signed in) on `path`, once the app has taken the server's markup over. */
async function visit(path: string, viewport: { width: number; height: number }): Promise<Page> {
  const page = await (await browser.newContext({ viewport })).newPage();
  await page.goto(`${app.url}${path}`);
  await appTakenOver(page);
  return page;
}

describe('pausing gifts', () => {
  for (const [size, viewport] of Object.entries(VIEWPORTS)) {
    it(`on a ${size}: pause in Settings, a visitor and a friend see the link paused, then resume`, async () => {
      const maker = await freshAccount(app, host, `pz${size.slice(0, 1)}`);
      await app.call(maker, 'POST', '/links/create', { details: { giveorreceive: 'receive', type: 'currency', amount: 5 } });
      const [product] = await app.call<{ itemId: string }[]>(maker, 'GET', '/api/products/search?q=mug');
      await app.call(maker, 'PUT', '/wishlists/update', { username: maker.username, items: [{ itemId: product.itemId }] });

      // Settings → Privacy: switched on, saved, said so.
      const settings = await openAs(browser, app, maker, { viewport });
      await settings.goto(`${app.url}/profile/${maker.username}/settings#privacy`);
      const toggle = settings.getByRole('switch', { name: PAUSE_GIFTS });
      expect(await toggle.isChecked()).toBe(false);
      await toggle.click();
      await settings.getByText(GIFTS_PAUSED_SAVED).waitFor();
      expect(await toggle.isChecked()).toBe(true);
      await toggle.evaluate((el) => el.scrollIntoView({ block: 'center' }));
      await shot(settings, `pause-settings-on-${size}`);

      // A visitor: the link is up, with no way to give.
      const visitor = await visit(`/link/${maker.username}`, viewport);
      await visitor.getByText(GIFTS_PAUSED).waitFor();
      await visitor.getByRole('heading', { name: `@${maker.username} is requesting $5.00` }).waitFor();
      expect(await visitor.getByRole('region', { name: 'Log in to use this link' }).count()).toBe(0);
      await shot(visitor, `pause-link-visitor-${size}`);

      // A friend, signed in: no Give button.
      const friend = await openAs(browser, app, await freshAccount(app, maker, `pf${size.slice(0, 1)}`), { viewport });
      await friend.goto(`${app.url}/link/${maker.username}`);
      await appTakenOver(friend);
      await balanceButton(friend).waitFor();
      await friend.getByText(GIFTS_PAUSED).waitFor();
      expect(await friend.getByRole('button', { name: 'Give', exact: true }).count()).toBe(0);
      await shot(friend, `pause-link-friend-${size}`);

      // The wishlist: still listed, nothing to buy.
      await friend.goto(`${app.url}/wishlist/${maker.username}`);
      await appTakenOver(friend);
      await friend.getByText(GIFTS_PAUSED).waitFor();
      await friend.getByRole('list', { name: 'Wishlist items' }).getByRole('button').first().click();
      await friend.getByRole('dialog').getByText(GIFTS_PAUSED).waitFor();
      expect(await friend.getByRole('button', { name: 'Purchase' }).count()).toBe(0);
      await shot(friend, `pause-wishlist-item-${size}`);
      await friend.getByRole('button', { name: 'Close' }).click();

      // Resumed: said so, and the visitor's page offers the way in again.
      await toggle.click();
      await settings.getByText(GIFTS_RESUMED_SAVED).waitFor();
      expect(await toggle.isChecked()).toBe(false);
      await shot(settings, `pause-settings-off-${size}`);
      await visitor.reload();
      await appTakenOver(visitor);
      await visitor.getByText('Log in or register to give to this link.').waitFor();
      expect(await visitor.getByText(GIFTS_PAUSED).count()).toBe(0);
      await shot(visitor, `pause-link-resumed-${size}`);
      await Promise.all([settings, visitor, friend].map((page) => page.context().close()));
    });
  }
});
