/** What `npm run audit:web` and `npm run trace:web` measure: a seeded user's pages. */
import { registerViaApi, type ApiAccount, type RunningApp } from '../e2e/harness.js';

async function call(app: RunningApp, who: ApiAccount, method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${app.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', 'x-auth-token': who.token },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** A user with a link and a two-item wishlist, made through the API as the stories make them. */
export async function seed(app: RunningApp): Promise<ApiAccount> {
  const ada = await registerViaApi(app, app.inviteUrl.split('/').pop()!, 'ada');
  await call(app, ada, 'POST', '/links/create', { details: { giveorreceive: 'receive', type: 'currency', amount: 20 } });
  const items: { itemId: string }[] = [];
  for (const q of ['mug', 'book']) {
    const found = (await call(app, ada, 'GET', `/api/products/search?q=${q}`)) as { itemId: string }[];
    items.push({ itemId: found[0].itemId });
  }
  await call(app, ada, 'PUT', '/wishlists/update', { username: ada.username, items });
  return ada;
}

/** The pages measured, by name: the two a visitor signs in on, and the two shared ones of `username`. */
export const PAGES = (username: string): [string, string][] => [
  ['login', '/login'],
  ['home', '/'],
  ['link', `/link/${username}`],
  ['wishlist', `/wishlist/${username}`],
];
