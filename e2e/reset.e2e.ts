import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VIEWPORTS, launchBrowser, registerViaApi, screenshots, startApp, type ApiAccount, type RunningApp } from './harness.js';

let app: RunningApp;
let browser: Browser;
let ada: ApiAccount;

beforeAll(async () => {
  // A fresh install as someone would run it: no SMTP_URL, so emails land in DATA_DIR/outbox and on the console.
  [app, browser] = await Promise.all([startApp({ NODE_ENV: 'development' }), launchBrowser()]);
  ada = await registerViaApi(app, app.inviteUrl.split('/').pop()!, 'ada');
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

/** The reset link in the newest email of the outbox (quoted-printable undone). */
async function linkFromOutbox(): Promise<string> {
  const dir = path.join(app.dataDir, 'outbox');
  let link: string | undefined;
  await expect
    .poll(
      () => {
        const files = fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
        if (files.length === 0) return undefined;
        const raw = fs.readFileSync(path.join(dir, files[files.length - 1]), 'utf8');
        const text = raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
        link = /http:\/\/\S+\/reset-password\/[A-Za-z0-9_-]{43}/.exec(text)?.[0];
        return link;
      },
      { timeout: 10_000 },
    )
    .toBeDefined();
  return link!;
}

describe('a forgotten password', () => {
  it('is reset from the link in the outbox, and the new one logs in', async () => {
    const context = await browser.newContext({ viewport: VIEWPORTS.phone });
    const page = await context.newPage();
    await page.goto(`${app.url}/login`);
    await page.getByRole('heading', { name: 'Welcome to Giftlink' }).waitFor();
    await screenshots(page, 'reset-login');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL(`${app.url}/forgot-password`);
    await page.getByRole('heading', { name: 'Forgot your password?' }).waitFor();
    await screenshots(page, 'reset-forgot');

    await page.getByLabel('Email').fill(ada.email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByRole('heading', { name: 'Check your email' }).waitFor();
    await page.getByText('If an account uses that email, we sent a link to reset its password.').waitFor();
    await screenshots(page, 'reset-sent');

    const link = await linkFromOutbox();
    // The console of a fresh install shows the link too.
    expect(app.output()).toContain(link);

    await page.goto(link);
    await page.getByRole('heading', { name: 'Set a new password' }).waitFor();
    await page.getByLabel('New password', { exact: true }).fill('fresh-pass-9');
    await page.getByLabel('Confirm new password').fill('fresh-pass-9');
    await screenshots(page, 'reset-form');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByRole('heading', { name: 'Password changed' }).waitFor();
    await screenshots(page, 'reset-done');

    // The session ada had before the reset is over.
    const me = await fetch(`${app.url}/api/auth/me`, { headers: { 'x-auth-token': ada.token } });
    expect(me.status).toBe(401);

    await page.getByRole('link', { name: 'Log in' }).click();
    await page.waitForURL(`${app.url}/login`);
    await page.getByLabel('Email').fill(ada.email);
    await page.getByLabel('Password').fill('fresh-pass-9');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(`${app.url}/`);

    // The link worked once.
    await page.goto(link);
    await page.getByLabel('New password', { exact: true }).fill('another-pass-1');
    await page.getByLabel('Confirm new password').fill('another-pass-1');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByText('This reset link is invalid or has expired.').waitFor();
    await screenshots(page, 'reset-invalid');
    await context.close();
  });
});
