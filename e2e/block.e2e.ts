import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BLOCK_DONE, MESSAGE_UNDELIVERABLE, NO_BLOCKS, SEND_ERROR } from '../api/contract/texts.js';
import { VIEWPORTS, openAs, screenshots, startStories, stopStories, type ApiAccount, type RunningApp } from './harness.js';

let app: RunningApp;
let browser: Browser;
let ana: ApiAccount;
let bob: ApiAccount;
let conversationId: string;

beforeAll(async () => {
  [app, browser, ana, bob] = await startStories(['ana', 'bob']);
  // Bob gives to Ana's receive link: an anonymous giver in Ana's messages.
  const link = await app.request(ana, 'POST', '/links/create', { details: { giveorreceive: 'receive', type: 'currency', amount: 10 } });
  await app.request(bob, 'POST', '/api/billing-settings-deposit', { balance: 20 });
  const give = await app.request(bob, 'POST', '/statuses/api/gives', { postId: link.body.id, amount: 5 });
  if (give.status !== 201) throw new Error(`give failed: ${JSON.stringify(give.body)}`);
  conversationId = give.body.conversationId as string;
  await app.request(bob, 'POST', '/messages/send', { conversationId, text: 'Hope you like it!' });
});
afterAll(() => stopStories(app, browser));

describe('blocking an anonymous giver', () => {
  it("blocks from the thread's menu, lists them anonymously in Settings, and unblocks", async () => {
    const page = await openAs(browser, app, ana, { viewport: VIEWPORTS.desktop });
    await page.goto(`${app.url}/messages/${conversationId}`);
    await page.getByText('Hope you like it!').waitFor({ timeout: 10_000 });

    const menuButton = page.getByRole('button', { name: 'Conversation options' });
    await menuButton.click();
    const menu = page.getByRole('menu');
    await menu.getByRole('menuitem', { name: 'Block…' }).waitFor();
    await screenshots(page, 'block-menu');

    await menu.getByRole('menuitem', { name: 'Block…' }).click();
    const confirm = page.getByRole('dialog');
    await confirm.getByText('They are not told.', { exact: false }).waitFor();
    await screenshots(page, 'block-confirm');
    await confirm.getByRole('button', { name: 'Block', exact: true }).click();
    await page.getByRole('dialog').getByText(BLOCK_DONE).waitFor({ timeout: 10_000 });
    await screenshots(page, 'block-done');
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();

    // Bob's messages no longer arrive, and what he is told does not say why.
    const refused = await app.request(bob, 'POST', '/messages/send', { conversationId, text: 'Hello?' });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(MESSAGE_UNDELIVERABLE);

    // The menu now offers Unblock for this thread.
    await menuButton.click();
    await menu.getByRole('menuitem', { name: 'Unblock' }).waitFor();
    await page.keyboard.press('Escape');

    await page.goto(`${app.url}/profile/${ana.username}/settings#blocked`);
    const section = page.getByRole('region', { name: 'Blocked people' });
    const row = section.getByRole('listitem');
    await expect.poll(() => row.count(), { timeout: 10_000 }).toBe(1);
    const text = (await row.textContent()) ?? '';
    expect(text).toMatch(/^Anonymous giver \(conversation of .+\)Unblock$/);
    expect(text.toLowerCase()).not.toContain('bob');
    await section.scrollIntoViewIfNeeded();
    await screenshots(page, 'blocked-settings');

    await row.getByRole('button', { name: /^Unblock/ }).click();
    await section.getByText(NO_BLOCKS).waitFor({ timeout: 10_000 });
    await screenshots(page, 'blocked-settings-empty');

    const again = await app.request(bob, 'POST', '/messages/send', { conversationId, text: 'Hello again' });
    expect(again.status).toBe(201);
  });

  it('tells the blocked giver, in the thread of the block, only that the message could not be delivered, with no Retry', async () => {
    const block = await app.request(ana, 'POST', '/api/blocks', { conversationId });
    expect(block.status).toBe(201);

    const page = await openAs(browser, app, bob);
    await page.goto(`${app.url}/messages/${conversationId}`);
    await page.getByText('Hello again').waitFor({ timeout: 10_000 });
    const input = page.getByRole('textbox', { name: 'Message' });
    await input.fill('Are you there?');
    await input.press('Enter');

    const mine = page.getByRole('listitem').filter({ hasText: 'Are you there?' });
    await mine.getByText(MESSAGE_UNDELIVERABLE, { exact: true }).waitFor({ timeout: 10_000 });
    expect(await mine.getByRole('alert').getByText(MESSAGE_UNDELIVERABLE, { exact: true }).count()).toBe(1);
    for (const retry of ['Retry', 'Not sent', 'Try again later', SEND_ERROR]) expect(await page.getByText(retry).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Retry' }).count()).toBe(0);
    await screenshots(page, 'block-refused-message');
    await mine.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Are you there?').waitFor({ state: 'detached' });
  });
});
