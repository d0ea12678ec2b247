/**
 * A small creator's visitor breakdown: twelve visitors are too few for a row per source or for
 * signed in or not, so the card shows merged rows and says so, instead of a blank card.
 */
import crypto from 'node:crypto';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAs, registerViaApi, screenshots, startStories, stopStories, type ApiAccount, type RunningApp } from './harness.js';

const PHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const DESKTOP_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

let app: RunningApp;
let browser: Browser;
let ada: ApiAccount;

/** One visit of ada's link page, as the page reports it. */
async function visit(source: string, userAgent: string, who: ApiAccount | null = null): Promise<void> {
  const res = await app.request(who, 'POST', '/links/ada', { sessionId: crypto.randomUUID(), source }, { 'user-agent': userAgent });
  expect(res.status).toBe(200);
}

beforeAll(async () => {
  [app, browser, ada] = await startStories(['ada']);
  await app.call(ada, 'POST', '/links/create', { details: { giveorreceive: 'receive', type: 'currency', amount: 5 } });
  // Twelve visitors: 4 from Instagram (3 signed in) and 3 from X on phones, 5 direct on desktops.
  const members = [await registerViaApi(app, ada.inviteCodes[0], 'ben')];
  members.push(await registerViaApi(app, members[0].inviteCodes[0], 'cyd'));
  members.push(await registerViaApi(app, members[1].inviteCodes[0], 'dee'));
  for (let i = 0; i < 4; i++) await visit('instagram', PHONE_UA, members[i]);
  for (let i = 0; i < 3; i++) await visit('x', PHONE_UA);
  for (let i = 0; i < 5; i++) await visit('direct', DESKTOP_UA);
  // Setup only: a week's subscription, and visits two hours old (the breakdown groups past hours).
  const db = new Database(path.join(app.dataDir, 'giftlink.sqlite'));
  db.prepare("UPDATE users SET subscribed_until = datetime('now', '+7 days') WHERE username = 'ada'").run();
  db.prepare("UPDATE link_visitors SET created_at = datetime(created_at, '-2 hours')").run();
  db.close();
});
afterAll(() => stopStories(app, browser));

describe('the visitor breakdown of a small creator', () => {
  it('shows merged rows and says how they were grouped, at both sizes', async () => {
    {
      const page = await openAs(browser, app, ada);
      await page.goto(`${app.url}/link/ada`);
      const card = page.locator('.visitor-breakdown');
      await card.getByRole('heading', { name: 'Visitors', exact: true }).waitFor();
      await card
        .getByText('Grouped sources into Social, Direct and Other and signed in or not together so no number counts fewer than 5 visitors.')
        .waitFor();
      const rows = await card.locator('li').allInnerTexts();
      expect(rows.map((r) => r.replace(/\s+/g, ' ').trim())).toEqual([
        expect.stringMatching(/ 12 views · 12 visitors$/),
        'Social 7',
        'Direct 5',
        'Other 0',
        'All visitors 12',
        'Phone 7',
        'Desktop 5',
      ]);
      await screenshots(page, 'breakdown-grouped');
      await page.context().close();
    }
  });
});
