import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_PASSWORD_WRONG, CURRENT_PASSWORD_REQUIRED } from '../api/contract/texts.js';
import { openAs, screenshots, SHOTS_DIR, startStories, stopStories, VIEWPORTS, type ApiAccount, type RunningApp } from './harness.js';

let app: RunningApp;
let browser: Browser;
let pia: ApiAccount;

beforeAll(async () => {
  [app, browser, pia] = await startStories(['pia']);
}, 120_000);
afterAll(() => stopStories(app, browser));

async function me(token: string): Promise<{ email: string; showPresence: boolean }> {
  const res = await fetch(`${app.url}/api/auth/me`, { headers: { 'x-auth-token': token } });
  return (await res.json()) as { email: string; showPresence: boolean };
}

/** What a person sees of a section, on a phone and on a desktop (the viewport, scrolled to it). */
async function sectionShots(page: Page, name: string, target: Locator): Promise<void> {
  fs.mkdirSync(SHOTS_DIR, { recursive: true });
  for (const [label, size] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(size);
    await target.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await page.screenshot({ path: path.join(SHOTS_DIR, `${name}-${label}.png`), animations: 'disabled' });
  }
  await page.setViewportSize(VIEWPORTS.phone);
}

describe('Settings: presence and signing in', () => {
  it("'Show when I'm online' is off until switched on, by keyboard too, and stays as saved", async () => {
    const page = await openAs(browser, app, pia);
    await page.goto(`${app.url}/profile/pia/settings#privacy`);
    const toggle = page.getByRole('switch', { name: "Show when I'm online" });
    await toggle.waitFor();
    expect(await toggle.isChecked()).toBe(false);
    await page.getByText('People you talk with by name will see when you are online.').waitFor();
    await sectionShots(page, 'settings-privacy-off', toggle);

    await toggle.focus();
    await page.keyboard.press('Space');
    await expect.poll(() => toggle.isChecked()).toBe(true);
    await expect.poll(async () => (await me(pia.token)).showPresence).toBe(true);
    await sectionShots(page, 'settings-privacy-on', toggle);
    await screenshots(page, 'settings-privacy');

    await page.reload();
    await expect.poll(() => page.getByRole('switch', { name: "Show when I'm online" }).isChecked()).toBe(true);
    // Clicking the label switches it off again.
    await page.getByText("Show when I'm online", { exact: true }).click();
    await expect.poll(async () => (await me(pia.token)).showPresence).toBe(false);
    await page.context().close();
  });

  it('asks for the current password to change the email or the password, and shows why it refused', async () => {
    const page = await openAs(browser, app, pia);
    await page.goto(`${app.url}/profile/pia/settings`);
    const current = page.getByLabel('Current password');
    // Not asked for other edits.
    await page.getByRole('button', { name: /^Bio/ }).click();
    expect(await current.count()).toBe(0);
    await page.getByLabel('Bio', { exact: true }).fill('Plants and trains');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByText('Changes saved.').waitFor();

    await page.getByRole('button', { name: /^Email/ }).click();
    await current.waitFor();
    await page.getByLabel('Email', { exact: true }).fill('pia.new@example.com');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByRole('alert').filter({ hasText: CURRENT_PASSWORD_REQUIRED }).waitFor();
    await current.fill('not-my-password');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByRole('alert').filter({ hasText: ACCOUNT_PASSWORD_WRONG }).waitFor();
    expect((await me(pia.token)).email).toBe(pia.email);
    await sectionShots(page, 'settings-current-password-section', current);
    await screenshots(page, 'settings-current-password');

    await current.fill(pia.password);
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByText('Changes saved.').waitFor();
    expect(await current.count()).toBe(0);
    expect((await me(pia.token)).email).toBe('pia.new@example.com');

    // A new password: asked for the current one as well; the page goes on signed in.
    await page.getByRole('button', { name: /^Password/ }).click();
    await page.getByLabel('Password', { exact: true }).fill('gifts-4-everyone');
    await current.fill(pia.password);
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByText('Changes saved.').waitFor();
    const login = await fetch(`${app.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'pia.new@example.com', password: 'gifts-4-everyone' }),
    });
    expect(login.status).toBe(200);
    await page.reload();
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    expect(page.url()).toBe(`${app.url}/profile/pia/settings`);
  });
});
