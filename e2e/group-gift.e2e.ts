import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAs, registerViaApi, screenshots, startStories, stopStories, VIEWPORTS, type ApiAccount, type RunningApp } from './harness.js';

let app: RunningApp;
let browser: Browser;
let owner: ApiAccount;
let friends: ApiAccount[];

beforeAll(async () => {
  [app, browser, owner] = await startStories(['gina']);
  const [f1, f2, f3] = owner.inviteCodes;
  friends = [await registerViaApi(app, f1, 'hugo'), await registerViaApi(app, f2, 'iris'), await registerViaApi(app, f3, 'jon')];
  // Sandbox money for the friends, through the API (the deposit dialog has its own story).
  for (const f of friends) await app.call(f, 'POST', '/api/billing-settings-deposit', { balance: 50 });
});
afterAll(() => stopStories(app, browser));

const progress = (page: Page) => page.getByRole('progressbar', { name: 'Gifts so far' }).first();

async function giveAs(friend: ApiAccount, amount: string, opts: { quick?: boolean; shot?: string } = {}): Promise<Page> {
  const page = await openAs(browser, app, friend);
  await page.goto(`${app.url}/link/gina`);
  await page.getByRole('heading', { name: /requesting \$20\.00/ }).waitFor();
  if (opts.shot) await screenshots(page, opts.shot);
  if (opts.quick) await page.getByRole('button', { name: amount, exact: true }).click();
  else await page.getByLabel('Other amount').fill(amount.replace('$', ''));
  await page.getByRole('button', { name: 'Give', exact: true }).click();
  const confirm = page.getByRole('dialog', { name: `Are you sure you want to give ${amount}.00?` });
  await confirm.getByRole('button', { name: 'Yes' }).click();
  await page.getByText(`You gave ${amount}.00!`).waitFor();
  return page;
}

describe('a group gift', () => {
  it('three friends fill a $20 request; quick amounts above what is left are disabled; the owner sees it used up', async () => {
    // Gina asks for $20: a receive link has no quantity, and holds no money, so no refund note.
    const g = await openAs(browser, app, owner, { viewport: VIEWPORTS.desktop });
    await g.goto(`${app.url}/share`);
    await g.getByRole('radio', { name: 'Receive' }).check();
    await g.getByRole('radio', { name: 'Currency' }).check();
    await g.getByLabel('Amount').fill('20');
    expect(await g.getByLabel('Quantity').count()).toBe(0);
    expect(await g.getByText('Unused links refund your balance after 24 hours.').count()).toBe(0);
    await g.getByText('Your link stays open for 24 hours, or until the gifts reach what you ask for.').waitFor();
    await screenshots(g, 'group-share-receive');
    await g.getByRole('button', { name: 'Create' }).click();
    await g.getByText('Your link is ready').waitFor();

    // Hugo gives $10 with a quick amount.
    const h = await giveAs(friends[0], '$10', { quick: true, shot: 'group-link-empty' });
    await h.close();

    // Iris sees '$10 of $20 from 1 person' on the card and the page, and gives $5.
    const i = await openAs(browser, app, friends[1]);
    await i.getByRole('link', { name: /User is requesting \$20\.00/ }).waitFor();
    await expect.poll(() => progress(i).getAttribute('aria-valuetext')).toBe('$10.00 of $20.00 from 1 person');
    await screenshots(i, 'group-feed-card');
    await i.goto(`${app.url}/link/gina`);
    await i.getByText('$10.00 left to give').waitFor();
    expect(await progress(i).getAttribute('aria-valuetext')).toBe('$10.00 of $20.00 from 1 person');
    await i.getByRole('button', { name: '$5', exact: true }).click();
    await i.getByRole('button', { name: 'Give', exact: true }).click();
    await i.getByRole('dialog', { name: 'Are you sure you want to give $5.00?' }).getByRole('button', { name: 'Yes' }).click();
    await i.getByText('You gave $5.00!').waitFor();

    // Jon: $5 is left, so $10 is disabled; typing more than what is left says so; $5 fills it.
    const j = await openAs(browser, app, friends[2]);
    await j.goto(`${app.url}/link/gina`);
    await j.getByText('$5.00 left to give').waitFor();
    expect(await progress(j).getAttribute('aria-valuetext')).toBe('$15.00 of $20.00 from 2 people');
    expect(await j.getByRole('button', { name: '$10', exact: true }).isDisabled()).toBe(true);
    expect(await j.getByRole('button', { name: '$5', exact: true }).isDisabled()).toBe(false);
    await screenshots(j, 'group-link-progress');
    await j.getByLabel('Other amount').fill('6');
    await j.getByRole('button', { name: 'Give', exact: true }).click();
    await j.getByRole('alert').filter({ hasText: 'Only $5.00 is left to give.' }).waitFor();
    await screenshots(j, 'group-link-over');
    await j.getByRole('button', { name: '$5', exact: true }).click();
    await j.getByRole('button', { name: 'Give', exact: true }).click();
    await j.getByRole('dialog', { name: 'Are you sure you want to give $5.00?' }).getByRole('button', { name: 'Yes' }).click();
    await j.getByText('You gave $5.00!').waitFor();

    // It is filled: everyone else gets the designed 'no longer available' page.
    await i.goto(`${app.url}/link/gina`);
    await i.getByRole('heading', { name: 'Link is no longer available.' }).waitFor();
    await i.getByRole('link', { name: "Go to @gina's profile" }).waitFor();
    await screenshots(i, 'group-link-gone');

    // Gina sees 'Used up', the filled progress, and 'Create a new link' instead of sharing.
    await g.goto(`${app.url}/link/gina`);
    await g.getByRole('heading', { name: 'Used up' }).waitFor();
    expect(await progress(g).getAttribute('aria-valuetext')).toBe('$20.00 of $20.00 from 3 people');
    expect(await g.getByText('Share your link').count()).toBe(0);
    await screenshots(g, 'group-owner-used-up');
    await g.getByRole('link', { name: 'Create a new link' }).click();
    await g.waitForURL(`${app.url}/share`);

    // Her profile's link card says the same.
    await g.goto(`${app.url}/profile/gina`);
    const card = g.getByRole('region', { name: 'Your link' });
    await card.getByText('Used up').waitFor();
    await card.getByRole('link', { name: 'Create a new link' }).waitFor();
    await screenshots(g, 'group-profile-used-up');
  });

  it('shows a designed page for a link or a wishlist of someone who does not exist', async () => {
    const context = await browser.newContext({ viewport: VIEWPORTS.phone });
    const page = await context.newPage();
    await page.goto(`${app.url}/link/nobody-here`);
    const notFound = page.getByRole('region', { name: 'Link not found' });
    await notFound.getByRole('heading', { name: 'Link not found' }).waitFor();
    await notFound.getByRole('link', { name: 'Home' }).waitFor();
    await notFound.getByRole('link', { name: 'Create your own link' }).waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
    await screenshots(page, 'unavailable-link-unknown');

    await page.goto(`${app.url}/wishlist/nobody-here`);
    const noUser = page.getByRole('region', { name: 'User not found' });
    await noUser.getByRole('heading', { name: 'User not found' }).waitFor();
    await screenshots(page, 'unavailable-wishlist-unknown');
    await noUser.getByRole('link', { name: 'Home' }).click();
    await page.waitForURL(`${app.url}/`);
    await context.close();
  });
});
