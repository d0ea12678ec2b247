import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VIEWPORTS, logIn, screenshots, startStories, stopStories, type ApiAccount, type RunningApp } from './harness.js';

let app: RunningApp;
let browser: Browser;
let ada: ApiAccount;

const IPHONE_SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';

beforeAll(async () => {
  [app, browser, ada] = await startStories(['ada']);
  // The registration's own session ends, so the two browsers below are Ada's only sessions.
  await fetch(`${app.url}/api/auth/logout`, { method: 'POST', headers: { 'x-auth-token': ada.token } });
});
afterAll(() => stopStories(app, browser));

/** Ends every session of Ada's, so an attempt (and its retry) starts from none. */
async function endAllSessions(): Promise<void> {
  const post = (path: string, token?: string, body?: unknown) =>
    fetch(`${app.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { 'x-auth-token': token } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
  const login = await post('/api/auth/login', undefined, { email: ada.email, password: ada.password });
  const { token } = (await login.json()) as { token: string };
  expect((await post('/api/sessions/sign-out-others', token)).status).toBe(200);
  expect((await post('/api/auth/logout', token)).status).toBeLessThan(300);
}

async function open(options: { viewport: { width: number; height: number }; userAgent?: string }): Promise<Page> {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  await logIn(page, app, ada);
  return page;
}

describe('signed-in devices in Settings', () => {
  it('the first browser sees both sessions, signs out the other, and the other is logged out', async () => {
    await endAllSessions();
    const laptop = await open({ viewport: VIEWPORTS.desktop });
    const phone = await open({ viewport: VIEWPORTS.phone, userAgent: IPHONE_SAFARI });

    await laptop.goto(`${app.url}/profile/ada/settings#devices`);
    const section = laptop.getByRole('region', { name: 'Signed-in devices' });
    const rows = section.getByRole('listitem');
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(2);
    const current = rows.filter({ hasText: 'This device' });
    await expect.poll(() => current.textContent()).toContain('Chrome on Linux');
    expect(await current.textContent()).toContain('Active now');
    const other = rows.filter({ hasText: 'Safari on iOS' });
    expect(await other.textContent()).toMatch(/Last active (just now|\d+ seconds? ago)/);
    expect(await current.getByRole('button', { name: /Sign out/ }).count()).toBe(0);
    await section.scrollIntoViewIfNeeded();
    await screenshots(laptop, 'sessions-two');

    await other.getByRole('button', { name: /^Sign out Safari on iOS/ }).click();
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(1);
    await section.getByText('This is the only device signed in to your account.').waitFor();
    expect(await section.getByRole('button', { name: 'Sign out all other sessions' }).count()).toBe(0);
    await screenshots(laptop, 'sessions-one');

    // The phone's next navigation finds its session ended: the login page.
    await phone.goto(`${app.url}/profile/ada/settings`);
    await phone.waitForURL(/\/login/, { timeout: 10_000 });

    // The laptop is still signed in.
    await laptop.reload();
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(1);
  });

  it("'Sign out all other sessions' leaves only this device", async () => {
    await endAllSessions();
    const first = await open({ viewport: VIEWPORTS.phone });
    const second = await open({ viewport: VIEWPORTS.desktop, userAgent: IPHONE_SAFARI });
    const third = await open({ viewport: VIEWPORTS.desktop, userAgent: IPHONE_SAFARI });

    await first.goto(`${app.url}/profile/ada/settings#devices`);
    const section = first.getByRole('region', { name: 'Signed-in devices' });
    const rows = section.getByRole('listitem');
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
    await section.scrollIntoViewIfNeeded();
    await screenshots(first, 'sessions-many');
    await section.getByRole('button', { name: 'Sign out all other sessions' }).click();
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(1);

    for (const page of [second, third]) {
      await page.goto(`${app.url}/profile/ada/settings`);
      await page.waitForURL(/\/login/, { timeout: 10_000 });
    }
  });
});
