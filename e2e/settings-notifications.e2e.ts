import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AlertPreferencesAnswer } from '../api/contract/alerts.js';
import { PUSH_TURN_ON } from '../api/contract/push-texts.js';
import { sectionShots, launchBrowser, openAs, registerViaApi, screenshots, startApp, type ApiAccount, type RunningApp } from './harness.js';

let app: RunningApp;
let browser: Browser;
let nia: ApiAccount;

beforeAll(async () => {
  [app, browser] = await Promise.all([startApp(), launchBrowser()]);
  nia = await registerViaApi(app, app.inviteUrl.split('/').pop()!, 'nia');
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

async function emailOn(kind: string): Promise<boolean | undefined> {
  const res = await fetch(`${app.url}/api/alerts/preferences`, { headers: { 'x-auth-token': nia.token } });
  const answer = (await res.json()) as AlertPreferencesAnswer;
  return answer.preferences.find((p) => p.kind === kind)?.channels.email;
}

describe('Settings: notifications', () => {
  it('lists every kind with an email and a push switch, security ones locked on; a switch saves, by keyboard too', async () => {
    const page = await openAs(browser, app, nia);
    await page.goto(`${app.url}/profile/nia/settings#notifications`);
    const messages = page.getByRole('switch', { name: 'Messages while you are away: Email' });
    await messages.waitFor();
    expect(await messages.isChecked()).toBe(true);
    const signIn = page.getByRole('switch', { name: 'New sign-in: Email' });
    expect(await signIn.isChecked()).toBe(true);
    expect(await signIn.isDisabled()).toBe(true);
    await page.getByRole('switch', { name: 'Messages while you are away: Push' }).waitFor();
    await page.getByRole('button', { name: PUSH_TURN_ON }).waitFor();
    await sectionShots(page, 'settings-notifications', messages);
    await screenshots(page, 'settings-notifications');

    await messages.focus();
    await page.keyboard.press('Space');
    await expect.poll(() => messages.isChecked()).toBe(false);
    await expect.poll(() => emailOn('message')).toBe(false);
    await page.reload();
    await expect.poll(() => page.getByRole('switch', { name: 'Messages while you are away: Email' }).isChecked()).toBe(false);
    await page.getByRole('switch', { name: 'Messages while you are away: Email' }).click();
    await expect.poll(() => emailOn('message')).toBe(true);
    await page.context().close();
  });
});
