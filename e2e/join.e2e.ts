import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  VIEWPORTS,
  freshAccount,
  openAs,
  registerViaApi,
  screenshots,
  startStories,
  stopStories,
  viewportShot,
  type ApiAccount,
  type RunningApp,
} from './harness.js';

let app: RunningApp;
let browser: Browser;
let ada: ApiAccount;
let friend: ApiAccount;

beforeAll(async () => {
  [app, browser, ada] = await startStories(['ada']);
  const link = await app.request(ada, 'POST', '/links/create', { details: { giveorreceive: 'receive', type: 'currency', amount: 10 } });
  if (link.status !== 201) throw new Error(`link failed: ${JSON.stringify(link.body)}`);
});
afterAll(() => stopStories(app, browser));

let attempts = 0;

describe('a used invite', () => {
  it('says who joined with it, to the inviter', async () => {
    // First in the file, while Ada's link still lets people join: the inviter joins through it.
    attempts += 1;
    const inviter = await registerViaApi(app, { via: ada.username }, `inviter${attempts}`);
    const joined = await freshAccount(app, inviter, 'invitee');
    const page = await openAs(browser, app, inviter, { viewport: VIEWPORTS.phone });
    await page.goto(`${app.url}/create-invite`);
    const used = page.getByRole('listitem').filter({ hasText: 'Used by' });
    await expect.poll(() => used.count()).toBe(1);
    await expect(used.textContent()).resolves.toContain(`Used by @${joined.username}`);
    await used.getByRole('link', { name: `@${joined.username}` }).waitFor();
    await viewportShot(page, 'invites-used-by');
    await page.setViewportSize(VIEWPORTS.desktop);
    await viewportShot(page, 'invites-used-by');
    await page.context().close();
  });
});

describe('joining from a shared link', () => {
  it('a signed-out visitor opens a link, joins through it and lands signed in on the link', async () => {
    const context = await browser.newContext({ viewport: VIEWPORTS.phone });
    const page = await context.newPage();
    // Her wishlist page offers the same join, to the same place.
    await page.goto(`${app.url}/wishlist/ada`);
    const fromWishlist = page.getByRole('link', { name: 'Join Giftlink' });
    await fromWishlist.waitFor();
    expect(await fromWishlist.getAttribute('href')).toBe('/register?via=ada');
    await page.goto(`${app.url}/link/ada`);
    const join = page.getByRole('link', { name: 'Join Giftlink' });
    await join.waitFor();
    // The link itself has loaded under the banner (a group gift: its progress bar).
    await page.getByRole('progressbar', { name: 'Gifts so far' }).first().waitFor();
    await screenshots(page, 'join-banner');

    await join.click();
    await page.waitForURL(`${app.url}/register?via=ada`);
    await page.getByText('Invited by ada').waitFor();
    expect(await page.getByLabel('Invite code').count()).toBe(0);
    await screenshots(page, 'join-register');

    await page.getByLabel('Username').fill('newbie');
    await page.getByLabel('Email').fill('newbie@example.com');
    await page.getByLabel('Date of birth').fill('1990-01-01');
    await page.getByLabel('Password', { exact: true }).fill('joined-4-gifts');
    await page.getByLabel('Confirm password').fill('joined-4-gifts');
    await page.getByRole('button', { name: 'Create Account' }).click();
    // Back on the link page, signed in: the visitor banner has gone, the balance shows.
    await page.waitForURL(`${app.url}/link/ada`);
    await page.getByRole('button', { name: /^Balance \$/ }).waitFor();
    expect(await page.getByText('Log in or register to gain full access to all features').count()).toBe(0);

    // The newcomer has invites of their own; Ada's are all still hers.
    await page.goto(`${app.url}/create-invite`);
    await page.getByText('3 invites available').waitFor();
    await screenshots(page, 'join-new-account-invites');
    const adas = (await app.request(ada, 'GET', `/api/invites/summary`)).body;
    expect(adas.available).toBe(3);
    await context.close();
  });

  it('with every personal invite used the link still lets people join; the owner’s setting turns it off', async () => {
    // Ada's three invites go to friends.
    const free = await app.call<{ code: string; status: string }[]>(ada, 'GET', `/invites/${ada.userId}`);
    const codes = free.filter((i) => i.status === 'available').map((i) => i.code);
    expect(codes).toHaveLength(3);
    friend = await registerViaApi(app, codes[0], 'friend1');
    await registerViaApi(app, codes[1], 'friend2');
    await registerViaApi(app, codes[2], 'friend3');

    const a = await openAs(browser, app, ada, { viewport: VIEWPORTS.desktop });
    await a.goto(`${app.url}/create-invite`);
    await a.getByText(/All your invites are used\. Your next invite arrives/).waitFor();
    await screenshots(a, 'join-invites-used');
    const stillOpen = await (await browser.newContext({ viewport: VIEWPORTS.phone })).newPage();
    await stillOpen.goto(`${app.url}/link/ada`);
    await stillOpen.getByRole('link', { name: 'Join Giftlink' }).waitFor();

    // The setting, in Settings and on the create-link form.
    await a.goto(`${app.url}/profile/ada/settings#privacy`);
    const setting = a.getByLabel('Let people who open my links join Giftlink');
    expect(await setting.isChecked()).toBe(true);
    await screenshots(a, 'join-settings');
    await setting.uncheck();
    await expect.poll(async () => (await app.request(ada, 'GET', '/api/auth/me')).body.letVisitorsJoin).toBe(false);
    await a.reload();
    expect(await a.getByLabel('Let people who open my links join Giftlink').isChecked()).toBe(false);
    await a.goto(`${app.url}/share`);
    const onForm = a.getByLabel('Let people who open my links join Giftlink');
    expect(await onForm.isChecked()).toBe(false);
    await onForm.check();
    await expect.poll(async () => (await app.request(ada, 'GET', '/api/auth/me')).body.letVisitorsJoin).toBe(true);
    await screenshots(a, 'join-share-form');
    await onForm.uncheck();
    await expect.poll(async () => (await app.request(ada, 'GET', '/api/auth/me')).body.letVisitorsJoin).toBe(false);

    // With the setting off, a visitor sees the banner without the offer.
    const visitor = await (await browser.newContext({ viewport: VIEWPORTS.phone })).newPage();
    await visitor.goto(`${app.url}/link/ada`);
    await visitor.getByText('Log in or register to gain full access to all features').waitFor();
    await visitor.waitForLoadState('networkidle');
    expect(await visitor.getByRole('link', { name: 'Join Giftlink' }).count()).toBe(0);
    // Following an old join link says so and asks for an invite code instead.
    await visitor.goto(`${app.url}/register?via=ada`);
    await visitor.getByText('No invite is available through this link right now.', { exact: false }).waitFor();
    await visitor.getByLabel('Invite code').waitFor();
    await screenshots(visitor, 'join-register-unavailable');
  });

  it("the link page's own Register button joins through the creator too", async () => {
    const link = await app.request(friend, 'POST', '/links/create', { details: { giveorreceive: 'receive', type: 'currency', amount: 5 } });
    expect(link.status).toBe(201);
    const page = await (await browser.newContext({ viewport: VIEWPORTS.desktop })).newPage();
    // The app's entry arrives late (a slow phone): the click lands on the server's markup, and its
    // loader holds it for the app (api/src/http/shared-page.ts), which follows it as its own link.
    let entryAsked = false;
    await page.route(/\/assets\/index-[^/]*\.js$/, async (route) => {
      entryAsked = true;
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await route.continue();
    });
    // Not waiting for the load event: on a busy machine the page paints before it loads, the loader
    // then starts the entry first, and the load event waits for the app.
    await page.goto(`${app.url}/link/friend1`, { waitUntil: 'domcontentloaded' });
    await page.getByRole('region', { name: 'Log in to use this link' }).getByRole('link', { name: 'Register' }).click();
    expect(await page.locator('#root').getAttribute('data-held-click')).toBe('/register');
    await expect.poll(() => entryAsked).toBe(true);
    await page.getByText('Invited by friend1').waitFor();
    await page.getByLabel('Username').fill('newbie2');
    await page.getByLabel('Email').fill('newbie2@example.com');
    await page.getByLabel('Date of birth').fill('1990-01-01');
    await page.getByLabel('Password', { exact: true }).fill('joined-4-gifts');
    await page.getByLabel('Confirm password').fill('joined-4-gifts');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.waitForURL(`${app.url}/link/friend1`);
    await page.getByRole('button', { name: /^Balance \$/ }).waitFor();
    expect((await app.request(friend, 'GET', '/api/invites/summary')).body.available).toBe(3);
  });
});
