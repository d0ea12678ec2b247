import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_PASSWORD_WRONG, CURRENT_PASSWORD_REQUIRED } from '../api/contract/texts.js';
import {
  sectionShots,
  openAs,
  screenshots,
  startStories,
  stopStories,
  viewportShot,
  VIEWPORTS,
  type ApiAccount,
  type RunningApp,
} from './harness.js';

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

// Before the stories that change Pia's password (which ends her other sessions).
describe('Settings in sections', () => {
  it('counts the characters of a settings field, and refuses past 40 instead of cutting', async () => {
    const a = await openAs(browser, app, pia, { viewport: VIEWPORTS.desktop });
    await a.goto(`${app.url}/profile/pia/settings`);
    await a.getByRole('button', { name: /^Bio/ }).click();
    const bio = a.getByLabel('Bio', { exact: true });
    await bio.fill('Hello, world');
    await a.getByText('12/40').waitFor();
    await a.evaluate(() => window.scrollTo(0, 0));
    await screenshots(a, 'settings-counter');

    await bio.fill('x'.repeat(45));
    expect(await bio.inputValue()).toHaveLength(45);
    await a.getByText('45/40').waitFor();
    await a.getByText('5 characters too many').waitFor();
    await a.getByRole('button', { name: 'Save Changes' }).click();
    await a.getByText('Bio must be at most 40 characters.').waitFor();
    await a.evaluate(() => window.scrollTo(0, 0));
    await screenshots(a, 'settings-over');

    await bio.fill('Loves gifts');
    await a.getByRole('button', { name: 'Save Changes' }).click();
    await a.getByText('Changes saved.').waitFor();
  });

  it('shows one section at a time on a phone, chosen by keyboard or by the address, and all of them on a desktop', async () => {
    const page = await openAs(browser, app, pia, { viewport: VIEWPORTS.phone });
    await page.goto(`${app.url}/profile/pia/settings`);
    const sections = page.getByRole('navigation', { name: 'Settings sections' });
    const profile = page.getByRole('heading', { name: 'Profile', exact: true });
    const blocked = page.getByRole('region', { name: 'Blocked people' });
    await profile.waitFor();
    expect(await blocked.isVisible()).toBe(false);
    const heights: Record<string, number> = {};
    heights.profile = await page.evaluate(() => document.documentElement.scrollHeight);
    await viewportShot(page, 'settings-profile');

    // From the keyboard: Tab to Blocked, Enter.
    const link = sections.getByRole('link', { name: 'Blocked' });
    await page.locator('body').focus();
    for (let i = 0; i < 30 && !(await link.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${app.url}/profile/pia/settings#blocked`);
    await blocked.waitFor();
    expect(await profile.isVisible()).toBe(false);
    expect(await link.getAttribute('aria-current')).toBe('true');
    await viewportShot(page, 'settings-blocked');

    // Each section by its address; none is as long as the old single page (2,775 px).
    for (const [hash, name] of [
      ['address', 'Shipping address'],
      ['privacy', 'Privacy'],
      ['devices', 'Signed-in devices'],
      ['data', 'Your data'],
    ]) {
      await page.goto(`${app.url}/profile/pia/settings#${hash}`);
      await page.getByRole('heading', { name, exact: true }).waitFor();
      expect(await profile.isVisible()).toBe(false);
      heights[hash] = await page.evaluate(() => document.documentElement.scrollHeight);
    }
    console.log('settings page heights at 390×844', heights);
    for (const height of Object.values(heights)) expect(height).toBeLessThan(1700);

    // A desktop: every section on the page.
    await page.setViewportSize(VIEWPORTS.desktop);
    await profile.waitFor();
    await blocked.waitFor();
    await page.getByRole('heading', { name: 'Shipping address' }).waitFor();
    await sections.getByRole('link', { name: 'Devices' }).click();
    await expect
      .poll(() => page.getByRole('region', { name: 'Signed-in devices' }).evaluate((el) => el.getBoundingClientRect().top))
      .toBeLessThan(200);
    await viewportShot(page, 'settings-devices');
    await page.context().close();
  });
});
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
