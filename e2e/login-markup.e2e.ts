import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VISITOR_COOKIE } from '../api/contract/visitor.js';
import { appTakenOver, VIEWPORTS, screenshots, startStories, stopStories, type ApiAccount, type RunningApp } from './harness.js';

/**
 * A visitor's /login is the server's markup until the app takes it over (api/src/sharing/preview.ts,
 * renderer/src/takeover.ts): nothing typed or sent in between is lost.
 */
let app: RunningApp;
let browser: Browser;
let ada: ApiAccount;

beforeAll(async () => {
  [app, browser, ada] = await startStories(['ada']);
});
afterAll(() => stopStories(app, browser));

describe("a visitor's login page before the app arrives", () => {
  it('can type into the login form, and send it, before the app arrives: the app keeps what was typed and the focus, and sends it', async () => {
    /** A page whose app entry arrives late (a slow phone), only when the test lets it. */
    const slowLogin = async () => {
      const context = await browser.newContext({ viewport: VIEWPORTS.phone });
      const page = await context.newPage();
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route(/\/assets\/index-[^/]*\.js$/, async (route) => {
        await held;
        await route.continue();
      });
      // And the session is asked of the server, slowly (as the desktop app asks it): without the
      // visitor mark the app cannot tell a visitor at once. The markup stays until it is known,
      // never replaced by the layout's spinner with the typed fields gone.
      await page.addInitScript((name) => void (document.cookie = `${name}=; Max-Age=0; Path=/`), VISITOR_COOKIE);
      await page.route('**/api/auth/me', async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 1000));
        await route.continue();
      });
      await page.goto(`${app.url}/login`, { waitUntil: 'domcontentloaded' });
      return { page, release };
    };
    // Typing starts on the server's markup and goes on in the app.
    const typing = await slowLogin();
    await typing.page.getByLabel('Email').fill(ada.email);
    await typing.page.getByLabel('Password').click();
    await typing.page.keyboard.type(ada.password.slice(0, -4));
    typing.release();
    await appTakenOver(typing.page);
    // The app's fields hold what was typed, and the caret is still in the password: typing goes on there.
    expect(await typing.page.getByLabel('Email').inputValue()).toBe(ada.email);
    expect(await typing.page.evaluate(() => document.activeElement?.id)).toBe('login-password');
    await screenshots(typing.page, 'login-typed-before-app');
    await typing.page.keyboard.type(ada.password.slice(-4));
    expect(await typing.page.getByLabel('Password').inputValue()).toBe(ada.password);
    await typing.page.keyboard.press('Enter');
    await typing.page.waitForURL(`${app.url}/`);
    await typing.page.getByRole('button', { name: /^Balance \$/ }).waitFor();
    await typing.page.context().close();

    // Sent before the app is in: the browser sends nothing (no reload, no password in an address);
    // the form waits, and the app sends it once it is in.
    const sending = await slowLogin();
    await sending.page.getByLabel('Email').fill(ada.email);
    await sending.page.getByLabel('Password').fill(ada.password);
    await sending.page.getByRole('button', { name: 'Log in' }).click();
    expect(await sending.page.locator('#root').getAttribute('data-held-submit')).toBe('0');
    expect(sending.page.url()).toBe(`${app.url}/login`);
    expect(await sending.page.locator('[data-taken-over]').count()).toBe(0);
    sending.release();
    await sending.page.waitForURL(`${app.url}/`);
    await sending.page.getByRole('button', { name: /^Balance \$/ }).waitFor();
    expect(await sending.page.locator('[data-held-submit]').count()).toBe(0);
    await sending.page.context().close();
  });
});
