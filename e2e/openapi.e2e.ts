import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHOTS_DIR, VIEWPORTS, launchBrowser, startApp, type RunningApp } from './harness.js';

let app: RunningApp;
let browser: Browser;
beforeAll(async () => {
  app = await startApp();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe('the API reference', () => {
  it('renders /api/docs from our own origin, under our CSP, with no request elsewhere', async () => {
    const page = await browser.newPage({ viewport: VIEWPORTS.desktop });
    const foreign: string[] = [];
    const errors: string[] = [];
    page.on('request', (r) => {
      if (!r.url().startsWith(app.url) && !r.url().startsWith('data:') && !r.url().startsWith('blob:')) foreign.push(r.url());
    });
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${app.url}/api/docs`);
    await page.getByText('Giftlink API', { exact: false }).first().waitFor({ timeout: 30_000 });
    // Scalar renders only the first tag's operations until a reader opens another from the sidebar.
    await page.getByText('links', { exact: true }).first().click();
    await page.getByText('/links/create').first().waitFor({ timeout: 10_000 });
    await expect(page.getByText('/links/create').first().isVisible()).resolves.toBe(true);
    fs.mkdirSync(SHOTS_DIR, { recursive: true });
    for (const [label, size] of Object.entries(VIEWPORTS)) {
      await page.setViewportSize(size);
      await page.waitForTimeout(300);
      await page.screenshot({ path: path.join(SHOTS_DIR, `api-docs-${label}.png`) });
    }
    expect(foreign).toEqual([]);
    expect(errors.filter((e) => /Content Security Policy|Refused/i.test(e))).toEqual([]);
    await page.close();
  });
});
