import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allowConsoleError, openAs, startStories, stopStories, type ApiAccount, type RunningApp } from './harness.js';

let app: RunningApp;
let browser: Browser;
let ana: ApiAccount;

beforeAll(async () => {
  [app, browser, ana] = await startStories(['ana']);
});
afterAll(() => stopStories(app, browser));

describe("the Content-Security-Policy's connect-src 'self'", () => {
  it('lets the live socket reach our own host over ws:, and refuses a WebSocket to any other host', async () => {
    const page = await openAs(browser, app, ana);
    const violations: string[] = [];
    page.on('console', (m) => {
      if (m.text().includes('Content Security Policy')) violations.push(m.text());
    });
    // The app's own socket: a WebSocket to our origin that opens and carries frames.
    const socket = await page.waitForEvent('websocket', {
      predicate: (ws) => ws.url().startsWith(app.url.replace('http', 'ws')),
      timeout: 15_000,
    });
    await socket.waitForEvent('framereceived', { timeout: 15_000 });
    expect(socket.isClosed()).toBe(false);
    expect(violations).toEqual([]);

    // Any other host is refused by the policy, before a connection is made; Chromium logs the refusal.
    allowConsoleError(/^Connecting to 'ws:\/\/elsewhere\.invalid\/socket' violates the following Content Security Policy directive/);
    const blocked = await page.evaluate(
      () =>
        new Promise<string>((resolve) => {
          document.addEventListener('securitypolicyviolation', (e) => resolve(`${e.effectiveDirective} ${e.blockedURI}`), { once: true });
          try {
            const elsewhere = new WebSocket('ws://elsewhere.invalid/socket');
            elsewhere.onopen = () => resolve('opened');
          } catch (err) {
            resolve(`threw ${(err as Error).name}`);
          }
          setTimeout(() => resolve('allowed'), 3_000);
        }),
    );
    expect(blocked).toMatch(/^(connect-src ws:\/\/elsewhere\.invalid|threw SecurityError)/);
  });
});
