/**
 * The alphabet of the two-world property: every action either world can take, each with a
 * readable name. Named actions are done by G, S or R by name, identically in both worlds;
 * anonymous ones by A (G in world 1, S in world 2).
 */
import fs from 'node:fs';
import path from 'node:path';
import { SUBSCRIPTION_PRODUCT_ID } from '../../contract/subscriptions.js';
import { sweepExpiredLinks } from '../links/expiry.js';
import { outboxDir } from '../mail/mailer.js';
import { suspendAccount, unsuspendAccount } from '../moderation/service.js';
import { orderDeps, sweepOrders } from '../orders/service.js';
import { connectClient, settle } from '../realtime/testing.js';
import {
  ADDRESS,
  DAY,
  GIVERS,
  HOUR,
  acceptByName,
  action,
  blocks,
  buyFromWishlist,
  gives,
  messages,
  reports,
  tinyPicture,
  whileAppOpen,
  type Action,
} from './two-worlds-actions.js';
import { callAs, dropSocket, inactive, signIn, type Role, type World } from './two-worlds.js';
import { TEST_BANK } from './server.js';
import { giveFromBalance, holds } from './two-worlds-money.js';
import { cards } from './two-worlds-cards.js';

const accounts = GIVERS.flatMap((g) => [
  action(
    `${g} withdraws everything and deletes the account`,
    false,
    (w) => !inactive(w, g),
    async (w) => {
      // Everything that can leave: money still on hold cannot.
      const balance = (await callAs(w, g, 'GET', '/api/billing-settings-balance')).body as { available: number };
      if (balance.available > 0) {
        await callAs(w, g, 'POST', '/api/payouts/sandbox/complete', TEST_BANK);
        await callAs(w, g, 'POST', '/api/billing-settings-withdrawal', { balance: balance.available });
      }
      const reply = await callAs(w, g, 'POST', '/api/account/delete', { password: w.people[g].password });
      if (reply.status === 200) {
        w.closed.add(g);
        dropSocket(w, g);
      }
      return `delete ${reply.status}`;
    },
  ),
  // The moderation service called as the CLI does.
  action(
    `a moderator suspends ${g}`,
    false,
    (w) => !inactive(w, g),
    async (w) => {
      const result = await suspendAccount(w.server.deps, w.people[g].username, 'two worlds');
      w.suspended.add(g);
      dropSocket(w, g);
      return `suspended ${result.suspended}`;
    },
  ),
  action(
    `a moderator lifts ${g}'s suspension (${g} signs in again)`,
    false,
    (w) => w.suspended.has(g),
    async (w) => {
      await unsuspendAccount(w.server.deps.db, w.people[g].username);
      w.suspended.delete(g);
      return `sign-in ${await signIn(w, g)}`;
    },
  ),
]);

const profiles = GIVERS.flatMap((g) => [
  ...(['displayName', 'bio'] as const).map((field) =>
    action(
      `${g} edits their ${field}`,
      false,
      (w) => !inactive(w, g),
      async (w, step) =>
        `edit ${(await callAs(w, g, 'PATCH', `/api/users/${w.people[g].id}`, { [field]: `${g} ${field} ${step}` })).status}`,
    ),
  ),
  ...(['profilePicture', 'coverPhoto'] as const).map((kind) =>
    action(
      `${g} uploads a ${kind}`,
      false,
      (w) => !inactive(w, g),
      async (w) => {
        const form = new FormData();
        form.set('pfpOrCover', kind);
        form.set('file', new Blob([new Uint8Array(await tinyPicture())], { type: 'image/png' }), 'me.png');
        return `upload ${(await w.server.request('POST', '/api/upload', { token: w.people[g].token, body: form })).status}`;
      },
    ),
  ),
  ...[true, false].map((on) =>
    action(
      `${g} turns 'Show when I'm online' ${on ? 'on' : 'off'}`,
      false,
      (w) => !inactive(w, g),
      async (w) => {
        const reply = await callAs(w, g, 'PATCH', `/api/users/${w.people[g].id}`, { showPresence: on });
        if (reply.status === 200) w.showsPresence[on ? 'add' : 'delete'](g);
        return `presence ${reply.status}`;
      },
    ),
  ),
]);

const subscriptions = GIVERS.flatMap((g) => [
  action(
    `${g} subscribes (sandbox card)`,
    false,
    (w) => !inactive(w, g) && w.subscription[g].state === 'none',
    async (w) => {
      const userId = w.people[g].id;
      const intent = await callAs(w, g, 'POST', '/subscriptions/create-payment-intent', { userId, productId: SUBSCRIPTION_PRODUCT_ID });
      if (intent.status !== 200) return `intent ${intent.status}`;
      const clientSecret = (intent.body as { clientSecret: string }).clientSecret;
      const confirm = await callAs(w, g, 'POST', '/subscriptions/sandbox/confirm', {
        clientSecret,
        cardNumber: '4242 4242 4242 4242',
        expiry: '12/40',
        cvc: '123',
      });
      if (confirm.status !== 200) return `confirm ${confirm.status}`;
      const paymentIntentId = (confirm.body as { paymentIntentId: string }).paymentIntentId;
      const created = await callAs(w, g, 'POST', '/subscriptions/create-subscription', {
        userId,
        productId: SUBSCRIPTION_PRODUCT_ID,
        paymentIntentId,
      });
      if (created.status === 200)
        w.subscription[g] = { state: 'renewing', id: (created.body as { subscriptionId: string }).subscriptionId };
      return `subscribe ${created.status}`;
    },
  ),
  action(
    `${g} cancels the subscription`,
    false,
    (w) => !inactive(w, g) && w.subscription[g].state === 'renewing',
    async (w) => {
      const sub = w.subscription[g];
      const id = sub.state === 'none' ? null : sub.id;
      const reply = await callAs(w, g, 'POST', '/subscriptions/cancel', {
        userId: w.people[g].id,
        stripeCustomerId: null,
        stripeSubscriptionId: id,
      });
      if (reply.status === 200 && id) w.subscription[g] = { state: 'cancelled', id };
      return `cancel ${reply.status}`;
    },
  ),
]);

/** The reset link in the newest email to `email` that this world has not read yet. */
async function resetTokenFor(w: World, email: string): Promise<string | null> {
  const dir = outboxDir(w.server.deps.config);
  const deadline = Date.now() + 5000;
  while (Date.now() < deadline) {
    const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.eml') && !w.mailRead.has(f)) : [];
    for (const f of files.sort()) {
      const raw = fs.readFileSync(path.join(dir, f), 'utf8');
      if (!new RegExp(`^To: ${email}$`, 'im').test(raw)) continue;
      w.mailRead.add(f);
      const body = raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
      return /\/reset-password\/([A-Za-z0-9_-]{43})/.exec(body)?.[1] ?? null;
    }
    await settle(25);
  }
  return null;
}

const sessions = GIVERS.flatMap((g) => [
  action(
    `${g} logs out and back in`,
    false,
    (w) => !inactive(w, g),
    async (w) => {
      const out = await callAs(w, g, 'POST', '/api/auth/logout');
      dropSocket(w, g);
      return `logout ${out.status}, sign-in ${await signIn(w, g)}`;
    },
  ),
  action(
    `${g} signs out their other sessions`,
    false,
    (w) => !inactive(w, g),
    async (w) => {
      const signedIn = await signIn(w, g);
      const out = await callAs(w, g, 'POST', '/api/sessions/sign-out-others');
      dropSocket(w, g);
      return `sign-in ${signedIn}, sign-out-others ${out.status}`;
    },
  ),
  action(
    `${g} changes the password`,
    false,
    (w) => !inactive(w, g),
    async (w) => {
      const next = `two-worlds-pass-${g}${(w.passwordChanges[g] += 1)}`;
      const reply = await callAs(w, g, 'PATCH', `/api/users/${w.people[g].id}`, { password: next, currentPassword: w.people[g].password });
      const token = reply.headers.get('x-auth-token');
      if (reply.status === 200 && token) {
        w.people[g].password = next;
        w.people[g].token = token;
        dropSocket(w, g);
      }
      return `password ${reply.status}`;
    },
  ),
  action(
    `${g} resets the password by email`,
    false,
    // three reset emails per address per quarter hour
    (w) => !inactive(w, g) && w.resetsAsked[g] < 3,
    async (w) => {
      w.resetsAsked[g] += 1;
      const asked = await w.server.request('POST', '/api/auth/forgot-password', { body: { email: w.people[g].email } });
      if (asked.status !== 200) return `forgot ${asked.status}`;
      const token = await resetTokenFor(w, w.people[g].email);
      if (!token) return 'no email';
      const next = `two-worlds-pass-${g}${(w.passwordChanges[g] += 1)}`;
      const reset = await w.server.request('POST', '/api/auth/reset-password', { body: { token, password: next } });
      if (reset.status !== 200) return `reset ${reset.status}`;
      w.people[g].password = next;
      dropSocket(w, g);
      return `reset ${reset.status}, sign-in ${await signIn(w, g)}`;
    },
  ),
  action(
    `${g} goes online (opens the app)`,
    false,
    (w) => !inactive(w, g) && !w.online[g],
    async (w) => {
      try {
        w.online[g] = await connectClient(w.server, { token: w.people[g].token });
        return 'online';
      } catch {
        return 'refused';
      }
    },
  ),
  action(
    `${g} goes offline (closes the app)`,
    false,
    (w) => w.online[g] !== undefined,
    async (w) => {
      dropSocket(w, g);
      return 'offline';
    },
  ),
]);

const addresses = (['R', 'G', 'S'] as Role[]).flatMap((role) => [
  action(
    `${role} sets a shipping address`,
    false,
    (w) => role === 'R' || !inactive(w, role),
    async (w) => {
      return `address ${(await callAs(w, role, 'PUT', '/api/users/me/address', ADDRESS)).status}`;
    },
  ),
  action(
    `${role} deletes the shipping address`,
    false,
    (w) => role === 'R' || !inactive(w, role),
    async (w) => {
      return `address ${(await callAs(w, role, 'DELETE', '/api/users/me/address')).status}`;
    },
  ),
]);

const time = [
  ...[
    ['2 hours', 2 * HOUR],
    ['3 days', 3 * DAY],
    ['15 days', 15 * DAY],
  ].map(([label, ms]) =>
    action(
      `orders move on (the order sweep ${label} from now)`,
      false,
      () => true,
      async (w) => {
        const moved = await sweepOrders(orderDeps(w.server.deps), new Date(Date.now() + Number(ms)));
        return JSON.stringify(moved);
      },
    ),
  ),
  action(
    'links expire (the expiry sweep past the links’ lifetime)',
    false,
    () => true,
    async (w) => {
      const closed = await sweepExpiredLinks(w.server.deps.db, new Date(Date.now() + (w.server.deps.config.linkTtlHours + 1) * HOUR));
      w.recipientLink = null;
      return `closed ${closed}`;
    },
  ),
];

/** Every action of the alphabet. */
export const ALPHABET: Action[] = [
  ...gives,
  ...buyFromWishlist,
  ...acceptByName,
  ...messages,
  ...blocks,
  ...reports,
  ...accounts,
  ...profiles,
  ...subscriptions,
  ...sessions,
  ...addresses,
  ...time,
  ...holds,
  ...cards,
];

/** Actions after which a giver cannot act for a while or for good (and A, by the rules, neither). */
export const ENDINGS: Action[] = accounts;
/** The rest of the alphabet, split so a sequence can weigh what A does. */
export const BY_A: Action[] = ALPHABET.filter((a) => a.anonymous);
export const BY_NAME: Action[] = ALPHABET.filter((a) => !a.anonymous && !ENDINGS.includes(a));

/** The action of that exact name. */
export function actionNamed(name: string): Action {
  const found = [...ALPHABET, giveFromBalance].find((a) => a.name === name);
  if (!found) throw new Error(`no action named ${JSON.stringify(name)}`);
  return found;
}

// A giver who cannot act is indistinguishable from one who stays silent: A does nothing while G or S is closed or suspended in either world.
const anonymousBlocked = (worlds: World[]) => worlds.some((w) => GIVERS.some((g) => inactive(w, g)));

/** Plays one step in both worlds at once; null when it is skipped in both. */
export async function play(worlds: [World, World], next: Action, step: number): Promise<string | null> {
  if (next.anonymous && anonymousBlocked(worlds)) return null;
  // An action impossible in either world is skipped in both.
  if (!worlds.every((w) => next.possible(w))) return null;
  const outcomes = await Promise.all(worlds.map((w) => (next.anonymous ? whileAppOpen(w, () => next.run(w, step)) : next.run(w, step))));
  return outcomes.map((o, i) => `${worlds[i].name}: ${o}`).join('; ');
}
