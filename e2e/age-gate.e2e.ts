import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNDER_AGE } from '../api/contract/account-texts.js';
import { VIEWPORTS, screenshots, startStories, stopStories, type ApiAccount, type RunningApp } from './harness.js';

let app: RunningApp;
let browser: Browser;
let ada: ApiAccount;

beforeAll(async () => {
  [app, browser, ada] = await startStories(['ada']);
});
afterAll(() => stopStories(app, browser));

/** A date `years` before today, `YYYY-MM-DD`, as a date input takes it. */
const yearsAgo = (years: number, days = 0) => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear() - years, now.getUTCMonth(), now.getUTCDate() + days)).toISOString().slice(0, 10);
};

describe('registering on a phone asks for a date of birth', () => {
  it('a 17-year-old is told why under the field, and an adult registers with the same invite', async () => {
    const context = await browser.newContext({ viewport: VIEWPORTS.phone });
    const page = await context.newPage();
    const code = ada.inviteCodes[0];
    await page.goto(`${app.url}/register/${code}`);
    // The terms and the privacy notice are a click away before anyone registers.
    const card = page.locator('.auth__footer');
    expect(await card.getByRole('link', { name: 'Terms' }).getAttribute('href')).toBe('/terms');
    expect(await card.getByRole('link', { name: 'Privacy' }).getAttribute('href')).toBe('/privacy');
    const dateOfBirth = page.getByLabel('Date of birth');
    await dateOfBirth.waitFor();
    expect(await dateOfBirth.getAttribute('type')).toBe('date');
    await screenshots(page, 'register-date-of-birth');

    await page.getByLabel('Username').fill('young_kit');
    await page.getByLabel('Email').fill('kit@example.com');
    await dateOfBirth.fill(yearsAgo(18, 1));
    await page.getByLabel('Password', { exact: true }).fill('gifts-4-all');
    await page.getByLabel('Confirm password').fill('gifts-4-all');
    await page.getByRole('button', { name: 'Create Account' }).click();

    const refusal = page.getByRole('alert').filter({ hasText: UNDER_AGE });
    await refusal.waitFor();
    // Said under the date field, which names it as its description.
    await expect(dateOfBirth.getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(dateOfBirth.getAttribute('aria-describedby')).resolves.toBe(await refusal.getAttribute('id'));
    expect(page.url()).toBe(`${app.url}/register/${code}`);
    await screenshots(page, 'register-under-age');

    // Nothing was spent: the invite still opens.
    const invite = await app.request(ada, 'GET', `/invites/accept/${code}`);
    expect(invite.body).toHaveLength(1);

    await dateOfBirth.fill(yearsAgo(18));
    await expect(refusal.count()).resolves.toBe(0);
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.waitForURL(`${app.url}/`);
    await page.getByRole('button', { name: /^Balance \$/ }).waitFor();
    await context.close();
  });
});
