import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshots, startApp, type RunningApp } from './harness.js';

let app: RunningApp;
let browser: Browser;
let picture: string;

beforeAll(async () => {
  [app, browser] = await Promise.all([startApp(), launchBrowser()]);
  picture = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'giftlink-pic-')), 'me.png');
  await sharp({ create: { width: 640, height: 640, channels: 3, background: '#ff9f43' } })
    .png()
    .toFile(picture);
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe('the server process', () => {
  it('exits cleanly (code 0) on SIGTERM', async () => {
    const other = await startApp();
    const health = await fetch(`${other.url}/healthz`);
    expect(await health.json()).toMatchObject({ status: 'ok' });
    const [code] = await Promise.all([other.stop(), fetch(`${other.url}/healthz`).catch(() => null)]);
    expect(code).toBe(0);
    expect(other.output()).toContain('Giftlink is running at');
  });
});

const visible = (page: Page, text: string | RegExp) => page.getByText(text).first().waitFor({ state: 'visible' });

describe('a new user, from the printed invite to logging back in', () => {
  it('registers, edits the profile, uploads a picture, logs out and comes back to a protected page', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));

    // The invite URL the server printed on its first start.
    await page.goto(app.inviteUrl);
    await visible(page, 'Accept Invite');
    await screenshots(page, 'invite');
    await page
      .getByRole('link', { name: 'Create Account' })
      .or(page.getByRole('button', { name: 'Create Account' }))
      .first()
      .click();

    await page.getByLabel('Username').fill('Maya_Chen');
    await page.getByLabel('Email').fill('maya@example.com');
    await page.getByLabel('Date of birth').fill('1990-01-01');
    await page.getByLabel('Password', { exact: true }).fill('gifts-4-all');
    await page.getByLabel('Confirm password').fill('gifts-4-all');
    await screenshots(page, 'register');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.waitForURL(`${app.url}/`);
    expect(await page.getByText('Log in or register to gain full access to all features').count()).toBe(0);

    // Settings: click-to-edit display name and bio, and a new profile picture.
    await page.goto(`${app.url}/profile/maya_chen/settings`);
    await page.getByRole('button', { name: /^Display Name/ }).click();
    await page.getByLabel('Display Name').fill('Maya Chen');
    await page.getByRole('button', { name: /^Bio/ }).click();
    await page.getByLabel('Bio').fill('Coffee, books and tiny plants');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await visible(page, 'Changes saved.');
    // A GIF is refused with the reason, whether the browser (by its type) or the server (by its bytes) notices.
    const gif = await sharp({ create: { width: 20, height: 20, channels: 3, background: '#0a0' } })
      .gif()
      .toBuffer();
    const notAnImage = page.getByRole('dialog').filter({ hasText: 'Only PNG and JPEG images can be uploaded.' });
    for (const name of ['cat.gif', 'cat.png']) {
      const mimeType = name.endsWith('.gif') ? 'image/gif' : 'image/png';
      await page.getByLabel('Change profile picture').setInputFiles({ name, mimeType, buffer: gif });
      await notAnImage.waitFor();
      await notAnImage.getByRole('button', { name: 'Close' }).click();
      await notAnImage.waitFor({ state: 'detached' });
    }
    await page.getByLabel('Change profile picture').setInputFiles(picture);
    await expect.poll(async () => page.locator('img[src^="/uploads/"]').count(), { timeout: 15_000 }).toBeGreaterThan(0);
    await screenshots(page, 'settings');

    // The profile shows them.
    await page.goto(`${app.url}/profile/maya_chen`);
    await visible(page, 'Maya Chen');
    await visible(page, 'Coffee, books and tiny plants');
    await visible(page, '@maya_chen');
    expect(await page.locator('img[src^="/uploads/"]').count()).toBeGreaterThan(0);
    await screenshots(page, 'profile');

    // Log out from settings.
    await page.goto(`${app.url}/profile/maya_chen/settings`);
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL(`${app.url}/login`);
    await visible(page, 'Receive gifts from people who love you');
    await screenshots(page, 'login');

    // A protected page sends a visitor to log in, then back.
    await page.goto(`${app.url}/create-invite`);
    await page.waitForURL(`${app.url}/login`);
    await page.getByLabel('Email').fill('maya@example.com');
    await page.getByLabel('Password').fill('gifts-4-all');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(`${app.url}/create-invite`);
    await expect.poll(async () => page.getByRole('button', { name: 'Copy URL' }).count()).toBe(3);
    await screenshots(page, 'create-invite');

    expect(errors).toEqual([]);
    await context.close();
  });

  it("shows the spec's texts for a wrong password and an invalid invite", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${app.url}/login`);
    await page.getByLabel('Email').fill('maya@example.com');
    await page.getByLabel('Password').fill('wrong-password');
    await page.getByRole('button', { name: 'Log in' }).click();
    await visible(page, 'Incorrect login information');

    await page.goto(`${app.url}/invite/not-a-real-invite`);
    await visible(page, 'Invalid or expired invite link.');
    await page.waitForURL(`${app.url}/`, { timeout: 10_000 });
    await context.close();
  });
});
