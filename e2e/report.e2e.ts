import { execFileSync } from 'node:child_process';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAs, screenshots, serverFile, startStories, stopStories, type ApiAccount, type RunningApp } from './harness.js';

let app: RunningApp;
let browser: Browser;
let ana: ApiAccount;
let bob: ApiAccount;
let conversationId: string;

beforeAll(async () => {
  [app, browser, ana, bob] = await startStories(['ana', 'bob']);
  // Bob gives Ana $5 anonymously, then writes something nasty in the gift's thread.
  const link = await app.request(ana, 'POST', '/links/create', { details: { giveorreceive: 'receive', type: 'currency', amount: 5 } });
  await app.request(bob, 'POST', '/api/billing-settings-deposit', { balance: 20 });
  const give = await app.request(bob, 'POST', '/statuses/api/gives', { postId: link.body.id, type: 'currency', amount: 5 });
  if (give.status !== 201) throw new Error(`give failed: ${JSON.stringify(give.body)}`);
  conversationId = String(give.body.conversationId);
  const sent = await app.request(bob, 'POST', '/messages/send', { conversationId, text: 'Now you owe me. Answer or else.' });
  if (sent.status !== 201) throw new Error(`send failed: ${JSON.stringify(sent.body)}`);
});
afterAll(() => stopStories(app, browser));

/** `npm run moderation` against the running app's database, as the compiled CLI. */
const moderation = (...args: string[]) =>
  execFileSync(process.execPath, [serverFile('api/src/moderation/cli.js'), ...args], {
    env: { ...process.env, DATA_DIR: app.dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' },
    encoding: 'utf8',
  });

describe('reporting', () => {
  it('reports a message from a thread (reasons, note, thanks), and the moderator sees it', async () => {
    const page = await openAs(browser, app, ana);
    await page.goto(`${app.url}/messages/${conversationId}`);
    await page.getByText('Now you owe me. Answer or else.').waitFor();
    // Only what the other person wrote has a Report: not the gift card (the app's text).
    await screenshots(page, 'report-thread');
    expect(await page.getByRole('button', { name: 'Report this message' }).count()).toBe(1);

    const message = page.locator('li.msg', { hasText: 'Now you owe me.' });
    await message.getByRole('button', { name: 'Report this message' }).click();
    const dialog = page.getByRole('dialog', { name: 'Report this message' });
    await dialog.waitFor();
    for (const reason of ['Harassment or bullying', 'Spam or scam', 'Hate speech', 'Self-harm or suicide', 'Something else'])
      await dialog.getByRole('radio', { name: reason }).waitFor();
    // Send without a reason asks for one.
    await dialog.getByRole('button', { name: 'Send' }).click();
    await dialog.getByText('Please choose a reason.').waitFor();
    await dialog.getByRole('radio', { name: 'Harassment or bullying' }).check();
    expect(await dialog.getByText('Please choose a reason.').count()).toBe(0);
    await dialog.getByRole('textbox').fill('An anonymous giver keeps threatening me.');
    await screenshots(page, 'report-dialog');
    await dialog.getByRole('button', { name: 'Send' }).click();
    const thanks = page.getByRole('dialog', { name: 'Report sent' });
    await thanks.getByText("Thanks, we'll look into it.").waitFor();
    expect(await thanks.getByText('bob').count()).toBe(0);
    await screenshots(page, 'report-thanks');
    await thanks.getByRole('button', { name: 'Close' }).click();
    await thanks.waitFor({ state: 'detached' });

    // The conversation from the thread's menu.
    await page.getByRole('button', { name: 'Conversation options' }).click();
    await page.getByRole('menuitem', { name: 'Report…' }).waitFor();
    await screenshots(page, 'report-menu');
    await page.getByRole('menuitem', { name: 'Report…' }).click();
    const whole = page.getByRole('dialog', { name: 'Report this conversation' });
    await whole.waitFor();
    await whole.getByRole('radio', { name: 'Spam or scam' }).check();
    await screenshots(page, 'report-conversation');
    await whole.getByRole('button', { name: 'Send' }).click();
    await page.getByRole('dialog', { name: 'Report sent' }).getByRole('button', { name: 'Close' }).click();

    // A slur is refused with its reason, never sent or altered; Retry would not help, so only Delete.
    await page.getByRole('textbox', { name: 'Message' }).fill('Leave me alone, you f4ggot');
    await page.getByRole('textbox', { name: 'Message' }).press('Enter');
    await page.getByRole('alert').getByText("Your message contains words we don't allow.").waitFor();
    expect(await page.getByRole('button', { name: 'Retry' }).count()).toBe(0);
    expect(await page.getByText('An error occured when sending your message').count()).toBe(0);
    await screenshots(page, 'report-refused-message');
    await page.getByRole('alert').getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Leave me alone, you f4ggot').waitFor({ state: 'detached' });

    // `npm run moderation` lists both with the text and who is who.
    const listed = moderation();
    expect(listed).toContain('harassment');
    expect(listed).toContain('note: An anonymous giver keeps threatening me.');
    expect(listed).toContain('bob: Now you owe me. Answer or else.');
    expect(listed).toContain(`reported: bob (${bob.userId})`);
    expect(listed).toContain(`reporter: ana (${ana.userId})`);
    expect(listed).toContain('spam  (conversation)');
  });
});
