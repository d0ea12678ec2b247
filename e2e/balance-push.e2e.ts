/// <reference lib="dom" />
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balanceShows, logIn, startStories, stopStories, VIEWPORTS, type ApiAccount, type RunningApp } from './harness.js';

let app: RunningApp;
let browser: Browser;
let rosa: ApiAccount;
let gil: ApiAccount;

beforeAll(async () => {
  [app, browser, rosa, gil] = await startStories(['rosa', 'gil']);
  await app.call(gil, 'POST', '/api/billing-settings-deposit', { userId: gil.userId, balance: 12 });
  await app.call(rosa, 'POST', '/links/create', { details: { giveorreceive: 'receive', type: 'currency', amount: 5, quantity: 1 } });
}, 120_000);
afterAll(() => stopStories(app, browser));

/** Opens the app as `who` on a phone, once its socket is live (upgraded to a WebSocket, which speaks only once connected). */
async function live(who: ApiAccount): Promise<Page> {
  const page = await (await browser.newContext({ viewport: VIEWPORTS.phone })).newPage();
  const connected = page
    .waitForEvent('websocket', { predicate: (ws) => ws.url().includes('/socket.io/'), timeout: 15_000 })
    .then((ws) => ws.waitForEvent('framereceived', { timeout: 15_000 }));
  await logIn(page, app, who);
  await connected;
  return page;
}

/** Counts the page's requests for the session from now on. */
function sessionReads(page: Page): () => number {
  let count = 0;
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/auth/me') count += 1;
  });
  return () => count;
}

describe('the balance follows money as it moves, without reading the session again', () => {
  it("a gift arriving moves the recipient's top bar, and the giver's, with no GET /api/auth/me", async () => {
    const recipient = await live(rosa);
    await balanceShows(recipient, '$0.00');
    const giver = await live(gil);
    await giver.goto(`${app.url}/link/${rosa.username}`);
    await giver.getByRole('button', { name: '$5', exact: true }).click();
    await balanceShows(giver, '$12.00');

    const [atRecipient, atGiver] = [sessionReads(recipient), sessionReads(giver)];
    await giver.getByRole('button', { name: 'Give', exact: true }).click();
    await giver.getByRole('dialog', { name: 'Are you sure you want to give $5.00?' }).getByRole('button', { name: 'Yes' }).click();
    await giver.getByText('You gave $5.00!').waitFor();

    await balanceShows(giver, '$7.00');
    await balanceShows(recipient, '$5.00');
    expect(atRecipient()).toBe(0);
    expect(atGiver()).toBe(0);
  });
});
