import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAs, screenshots, startStories, stopStories, viewportShot, VIEWPORTS, type ApiAccount, type RunningApp } from './harness.js';

let app: RunningApp;
let browser: Browser;
let ana: ApiAccount;
let bob: ApiAccount;
let cleo: ApiAccount;
let linkId: string;

/** `giver` gives $5 to Ana's receive link. */
async function giveFive(giver: ApiAccount): Promise<void> {
  const give = await app.request(giver, 'POST', '/statuses/api/gives', { postId: linkId, type: 'currency', amount: 5 });
  if (give.status !== 201) throw new Error(`give failed: ${JSON.stringify(give.body)}`);
}

beforeAll(async () => {
  [app, browser, ana, bob, cleo] = await startStories(['ana', 'bob', 'cleo']);
  // Setup through the API: Ana asks for money with a receive link, Bob deposits and gives $5.
  const link = await app.request(ana, 'POST', '/links/create', {
    details: { giveorreceive: 'receive', type: 'currency', amount: 10, quantity: 3 },
  });
  linkId = String(link.body.id);
  await app.request(bob, 'POST', '/api/billing-settings-deposit', { balance: 20 });
  await app.request(cleo, 'POST', '/api/billing-settings-deposit', { balance: 5 });
  await giveFive(bob);
});
afterAll(() => stopStories(app, browser));

const as = (account: ApiAccount, viewport?: { width: number; height: number }) => openAs(browser, app, account, { viewport });

/** The top bar's live count, by its accessible name: 'Messages, 2 unread' or plain 'Messages'. */
const badge = (page: Page, name: 'Messages' | 'Notifications', unread: number) =>
  page.getByRole('link', { name: unread ? `${name}, ${unread} unread` : name, exact: true }).waitFor({ timeout: 10_000 });

describe('chatting after a gift', () => {
  it('two people chat live; badges update without a reload; Mark all read empties the unread list', async () => {
    const a = await as(ana, { width: 1280, height: 800 });
    const b = await as(bob);

    // Ana was given a gift: one unread message and one unread notification, anonymous.
    await badge(a, 'Messages', 1);
    await badge(a, 'Notifications', 1);
    await a.goto(`${app.url}/conversations`);
    await a.getByText('Anonymous').first().waitFor();
    await screenshots(a, 'conversations');
    await a.getByText('Anonymous').first().click();
    await a.waitForURL(/\/messages\//);
    await a.getByText('You received a gift of $5.00!').first().waitFor();
    await badge(a, 'Messages', 0);
    // One gift, one unread count: opening its thread read the gift's notification too, without a reload.
    await badge(a, 'Notifications', 0);

    // Ana thanks the anonymous giver; Bob sees it live and answers.
    await a.getByRole('textbox', { name: 'Message' }).fill('Thank you so much, whoever you are!');
    await a.getByRole('textbox', { name: 'Message' }).press('Enter');
    await badge(b, 'Messages', 1);
    await b.goto(`${app.url}/conversations`);
    await b.getByText('Thank you so much, whoever you are!').first().click();
    await b.waitForURL(/\/messages\//);
    await b.getByRole('textbox', { name: 'Message' }).fill('Enjoy it!');
    await b.getByRole('button', { name: 'Send' }).click();
    await a.getByText('Enjoy it!').waitFor({ timeout: 10_000 });
    await screenshots(a, 'thread');
    await screenshots(b, 'thread-giver');

    // Notifications: the read gift is not unread; Cleo's gift arrives live, from Anonymous; Mark all read empties the list.
    await a.goto(`${app.url}/notifications`);
    await a.getByText("You're all caught up").waitFor();
    await giveFive(cleo);
    await badge(a, 'Notifications', 1);
    await a.getByText('You received a gift of $5.00!').first().waitFor();
    expect(await a.getByText(bob.username, { exact: true }).count()).toBe(0);
    expect(await a.getByText(cleo.username, { exact: true }).count()).toBe(0);
    await screenshots(a, 'notifications');
    await a.getByRole('button', { name: 'Mark all read' }).click();
    await expect.poll(() => a.getByText('You received a gift of $5.00!').count()).toBe(0);
    await a.getByRole('radio', { name: 'Read', exact: true }).check();
    await a.getByText('You received a gift of $5.00!').first().waitFor();
    await badge(a, 'Notifications', 0);
  });
});

describe('the chat header', () => {
  it("shows 'you are anonymous here' whole on a phone, not cut off", async () => {
    const inbox = await app.call<unknown>(bob, 'GET', `/conversations/${bob.userId}`);
    const threads = (Array.isArray(inbox) ? inbox : (inbox as { conversations: unknown[] }).conversations) as { _id: string }[];
    const page = await openAs(browser, app, bob, { viewport: VIEWPORTS.phone });
    await page.goto(`${app.url}/messages/${threads[0]._id}`);
    const sub = page.locator('.thread__sub');
    await sub.getByText('you are anonymous here').waitFor();
    for (const viewport of [VIEWPORTS.phone, VIEWPORTS.desktop]) {
      await page.setViewportSize(viewport);
      const measure = () =>
        sub.evaluate((el) => ({
          text: el.textContent,
          overflow: el.scrollWidth - el.clientWidth,
          right: el.getBoundingClientRect().right,
        }));
      // The page may lay the header out again after the resize: wait for it to settle.
      await expect.poll(async () => (await measure()).overflow, { message: `${viewport.width}px` }).toBeLessThanOrEqual(0);
      const line = await measure();
      expect(line.text).toBe('@ana · you are anonymous here');
      expect(line.right).toBeLessThanOrEqual(viewport.width);
      await viewportShot(page, 'thread-header');
    }
    await page.context().close();
  });
});
