import crypto from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAs, screenshots, startStories, stopStories, VIEWPORTS, type ApiAccount, type RunningApp } from './harness.js';

let app: RunningApp;
let browser: Browser;
let mia: ApiAccount;
let ned: ApiAccount;

/** A card gift paid with the sandbox's test card and 'Save this card' ticked: the card is kept for next time. */
async function saveCard(who: ApiAccount): Promise<void> {
  const card = { number: '4242 4242 4242 4242', expiry: '12/40', cvc: '123' };
  const res = await app.request(
    who,
    'POST',
    '/api/wallet/card-deposit',
    { amount: 2, card, save: true },
    { 'Idempotency-Key': crypto.randomUUID() },
  );
  expect(res.status).toBe(200);
}

beforeAll(async () => {
  [app, browser, mia, ned] = await startStories(['mia', 'ned']);
  await saveCard(mia);
  await saveCard(ned);
}, 120_000);
afterAll(() => stopStories(app, browser));

describe('your card, your data: removing the saved card', () => {
  for (const size of ['phone', 'desktop'] as const) {
    it(`on a ${size}: Settings shows the saved card, 'Remove' deletes it, then no card is saved`, async () => {
      const account = size === 'phone' ? mia : ned;
      const page = await openAs(browser, app, account, { viewport: VIEWPORTS[size] });
      await page.goto(`${app.url}/profile/${account.username}/settings#payouts`);
      const section = page.getByRole('region', { name: 'Saved card' });
      await section.getByText('Card ending in 4242').waitFor();
      await screenshots(page, `card-saved-${size}`);

      await section.getByRole('button', { name: 'Remove Card ending in 4242' }).click();
      await section.getByText('No card is saved. You can save one the next time you pay by card.').waitFor();
      expect(await section.getByRole('button', { name: /Remove/ }).count()).toBe(0);
      await screenshots(page, `card-removed-${size}`);

      // The server agrees: the card is gone for the next gift too.
      expect(await app.call(account, 'GET', '/api/wallet/card')).toEqual({ card: null });
      await page.context().close();
    });
  }
});
