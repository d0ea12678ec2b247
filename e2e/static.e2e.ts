import type { Browser, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appTakenOver, VIEWPORTS, openAs, screenshots, startStories, stopStories, type ApiAccount, type RunningApp } from './harness.js';

let app: RunningApp;
let browser: Browser;
let ada: ApiAccount;

beforeAll(async () => {
  [app, browser, ada] = await startStories(['ada']);
});
afterAll(() => stopStories(app, browser));

describe('the site as a browser loads it', () => {
  it('gets its scripts and styles compressed (brotli) and cached for a year, and the feed with an ETag', async () => {
    const context = await browser.newContext({ viewport: VIEWPORTS.desktop });
    const page = await context.newPage();
    const assets: Response[] = [];
    page.on('response', (res) => {
      if (new URL(res.url()).pathname.startsWith('/assets/') && /\.(js|css)$/.test(res.url())) assets.push(res);
    });
    await page.goto(`${app.url}/login`);
    // A visitor's /login paints its form before any script: the scripts are in once the app has taken over.
    await appTakenOver(page);
    expect(assets.length).toBeGreaterThan(0);
    for (const res of assets) {
      const headers = await res.allHeaders();
      expect(headers['content-encoding'], res.url()).toBe('br');
      expect(headers['cache-control'], res.url()).toBe('public, max-age=31536000, immutable');
      expect(headers['etag'], res.url()).toMatch(/^"[\w-]+-br"$/);
    }
    const feed = await page.request.get(`${app.url}/links/all?page=1`);
    expect(feed.headers()['etag']).toMatch(/^W\/"/);
    await context.close();

    const home = await openAs(browser, app, ada, { viewport: VIEWPORTS.phone });
    await home.waitForLoadState('networkidle');
    await screenshots(home, 'static-home');
  });
});
