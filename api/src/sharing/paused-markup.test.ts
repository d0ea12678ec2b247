import { describe, expect, it } from 'vitest';
import { GIFTS_PAUSED } from '../../contract/texts.js';
import { CHROME, rootOf, textOf, usePageServer } from '../testing/pages.js';
import { buildUsers } from '../testing/server.js';

const site = usePageServer();

const setPaused = (who: { user: { _id: string }; token: string }, giftsPaused: boolean) =>
  site.server.request('PATCH', `/api/users/${who.user._id}`, { token: who.token, body: { giftsPaused } });

describe("a paused person's pages, as the server paints them", () => {
  it('the link page says so, with no way to give; resumed, the login box is back', async () => {
    const [mo] = await buildUsers(site.server, 1, 'pzlink');
    expect((await site.create(mo, { giveorreceive: 'receive', type: 'currency', amount: 20 })).status).toBe(201);
    await setPaused(mo, true);
    const paused = textOf(rootOf((await site.fetchPage(`/link/${mo.user.username}`, CHROME)).html));
    expect(paused).toContain(`@${mo.user.username} is requesting $20.00`);
    expect(paused).toContain(GIFTS_PAUSED);
    expect(paused).not.toContain('Log in or register to give to this link');

    await setPaused(mo, false);
    const resumed = textOf(rootOf((await site.fetchPage(`/link/${mo.user.username}`, CHROME)).html));
    expect(resumed).not.toContain(GIFTS_PAUSED);
    expect(resumed).toContain('Log in or register to give to this link');
  });

  it('the wishlist page says so', async () => {
    const [wes] = await buildUsers(site.server, 1, 'pzwish');
    await setPaused(wes, true);
    const page = textOf(rootOf((await site.fetchPage(`/wishlist/${wes.user.username}`, CHROME)).html));
    expect(page).toContain(`@${wes.user.username}'s wishlist`);
    expect(page).toContain(GIFTS_PAUSED);
  });
});
