import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { afterEach, expect } from 'vitest';
import { apiClient, type ApiClient } from './api.js';
import { freePort as freeTestPort } from '../api/src/testing/commands.js';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const SHOTS_DIR = path.resolve('test-results/screenshots');

/** A running app; `call` and `request` reach its API directly. */
export interface RunningApp extends ApiClient {
  url: string;
  /** The first-account invite URL the server printed. */
  inviteUrl: string;
  /** The server's DATA_DIR (its SQLite file, uploads, and the outbox of emails when SMTP_URL is unset). */
  dataDir: string;
  output(): string;
  /** Sends SIGTERM and waits for the process to exit; answers its exit code. */
  stop(): Promise<number | null>;
}

/**
 * Starts the product exactly as `npm start` does (built site in dist/web, compiled server in
 * dist/server: `npm run test:e2e` builds both) on a fresh data dir.
 */
/** A compiled server file, e.g. `api/src/moderation/cli.js`, in the build the stories test. */
export const serverFile = (file: string): string => path.join(process.env.E2E_DIST ?? 'dist', 'server', file);

export async function startApp(env: Record<string, string> = {}): Promise<RunningApp> {
  const port = Number(await freeTestPort());
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'giftlink-e2e-'));
  // E2E_DIST (default `dist`) lets a build elsewhere (inside the repository, for node_modules) be tested.
  const dist = process.env.E2E_DIST ?? 'dist';
  const child: ChildProcess = spawn(process.execPath, ['--enable-source-maps', serverFile('api/src/main.js')], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      WEB_DIR: path.join(dist, 'web'),
      LOG_LEVEL: 'warn',
      // The developer's .env is not the stories' configuration.
      ENV_FILE: '',
      // Every story pays with the same test cards from one address.
      CARD_PAYMENTS_PER_CARD: '10000',
      CARD_PAYMENTS_PER_CLIENT: '10000',
      // Stories that withdraw what they deposit are not about holds; e2e/holds.e2e.ts sets one.
      FUNDS_HOLD_HOURS: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const inviteUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not print an invite:\n${out}`)), 60_000);
    const check = () => {
      const m = out.match(/(http:\/\/\S+\/invite\/[A-Za-z0-9_-]+)/);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout!.on('data', check);
    child.on('exit', (code) => reject(new Error(`server exited with ${code}:\n${out}`)));
  });
  const url = `http://localhost:${port}`;
  return {
    ...apiClient(url),
    url,
    inviteUrl,
    dataDir,
    output: () => out,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
      return child.exitCode;
    },
  };
}

/** Page errors and console errors seen since the current story began, with the resource each names. */
const pageProblems: { text: string; resource: string }[] = [];
/** Calls the app made that the server answered with a 4xx: answers the app shows, not faults. */
const refusedCalls = new Set<string>();
/** Console errors the current story provokes on purpose (each call site says why). */
let allowedConsoleErrors: RegExp[] = [];

/** Lets the current story log console errors matching `pattern` (it provokes them itself). */
export function allowConsoleError(pattern: RegExp): void {
  allowedConsoleErrors.push(pattern);
}

const watched = new WeakSet<Page>();

function watchPage(page: Page): void {
  // browser.newPage makes its own context, which is watched too: listen once.
  if (watched.has(page)) return;
  watched.add(page);
  page.on('pageerror', (err) => pageProblems.push({ text: `pageerror on ${page.url()}: ${err.stack ?? err.message}`, resource: '' }));
  page.on('response', (res) => {
    const kind = res.request().resourceType();
    if ((kind === 'fetch' || kind === 'xhr') && res.status() >= 400 && res.status() < 500) refusedCalls.add(res.url());
  });
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    const text = msg.text();
    if (allowedConsoleErrors.some((pattern) => pattern.test(text))) return;
    const { url, lineNumber } = msg.location();
    // Chromium logs every refused call as a failed resource; the story checks what the page shows.
    const resource = text.startsWith('Failed to load resource') ? url : '';
    pageProblems.push({ text: `console error on ${page.url()}: ${text} (${url}:${lineNumber})`, resource });
  });
}

function watchContext(context: BrowserContext): BrowserContext {
  context.pages().forEach(watchPage);
  context.on('page', watchPage);
  return context;
}

// Every story fails on a page error or a console error, so a broken page cannot pass unnoticed.
afterEach(() => {
  const problems = pageProblems.splice(0).filter((p) => !(p.resource && refusedCalls.has(p.resource)));
  allowedConsoleErrors = [];
  refusedCalls.clear();
  if (problems.length > 0) throw new Error(`the page reported ${problems.length} error(s):\n${problems.map((p) => p.text).join('\n')}`);
});

/** Chromium whose every context and page is watched for page and console errors. */
export async function launchBrowser(): Promise<Browser> {
  const browser = await launchChromium();
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => watchContext(await newContext(options));
  const newPage = browser.newPage.bind(browser);
  browser.newPage = async (options) => {
    const page = await newPage(options);
    watchPage(page);
    return page;
  };
  return browser;
}

function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
    ],
  });
}

export const VIEWPORTS = {
  phone: { width: 390, height: 844 },
  desktop: { width: 1280, height: 800 },
} as const;

/**
 * axe-core rules the stories may not yet satisfy, each with why. Keep this empty when you can: an
 * id here switches that rule off on every page the stories check.
 */
export const AXE_ALLOWED_RULES: readonly string[] = [];

/** Waits for the page's finite animations (a dialog fading in): mid-fade text fails the contrast check. */
async function animationsSettled(page: Page): Promise<void> {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getComputedTiming().iterations !== Infinity)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
}

/** Fails with a readable list when axe-core finds any accessibility violation, of any impact, on the page as it is now. */
export async function expectNoAxeViolations(page: Page, where = page.url()): Promise<void> {
  await animationsSettled(page);
  // Legacy mode runs axe inside the page's own frames: the default mode opens a blank page of its
  // own, which an Electron window cannot, and reaches into third-party frames (Stripe) we cannot fix.
  const { violations } = await new AxeBuilder({ page })
    .setLegacyMode()
    .disableRules([...AXE_ALLOWED_RULES])
    .analyze();
  if (violations.length === 0) return;
  const lines = violations.map(
    (v) =>
      `- ${v.id} (${v.impact ?? 'unknown'}): ${v.help}\n${v.nodes.map((n) => `    ${n.target.join(' ')}: ${n.failureSummary ?? ''}`.replace(/\n/g, ' ')).join('\n')}`,
  );
  throw new Error(`axe-core found ${violations.length} violation(s) on ${where}:\n${lines.join('\n')}`);
}

/**
 * Waits until the app has taken over a page the server sent with its own markup (a shared link or
 * wishlist, a visitor's home or /login): its scripts have run and `#root` is the app's.
 */
export async function appTakenOver(page: Page): Promise<void> {
  await page.locator('[data-taken-over]').waitFor({ state: 'attached' });
}

/**
 * Saves a screenshot of the page as a person would see it, on a phone and on a desktop, and checks
 * each with axe-core (no violation of any impact).
 */
export async function screenshots(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SHOTS_DIR, { recursive: true });
  const original = page.viewportSize();
  for (const [label, size] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(size);
    await page.screenshot({ path: path.join(SHOTS_DIR, `${name}-${label}.png`), fullPage: true, animations: 'disabled' });
    await expectNoAxeViolations(page, `${name} (${label})`);
  }
  if (original) await page.setViewportSize(original);
}

/** What a person sees of a section, on a phone and on a desktop (the viewport, scrolled to `target`); the page is left phone-sized. */
export async function sectionShots(page: Page, name: string, target: Locator): Promise<void> {
  fs.mkdirSync(SHOTS_DIR, { recursive: true });
  for (const [label, size] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(size);
    await target.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await page.screenshot({ path: path.join(SHOTS_DIR, `${name}-${label}.png`), animations: 'disabled' });
  }
  await page.setViewportSize(VIEWPORTS.phone);
}

/** A screenshot of the viewport as it is now (not the full page), named for its width. */
export async function viewportShot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SHOTS_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS_DIR, `${name}-${page.viewportSize()!.width}.png`), animations: 'disabled' });
}

/** `giver` gives `dollars` anonymously to a new receive link of `owner`'s, with sandbox money deposited first; answers the link's id. */
export async function giveAnonymously(app: RunningApp, giver: ApiAccount, owner: ApiAccount, dollars: number): Promise<string> {
  const link = await app.call<{ id: string }>(owner, 'POST', '/links/create', {
    details: { giveorreceive: 'receive', type: 'currency', amount: dollars },
  });
  await app.call(giver, 'POST', '/api/billing-settings-deposit', { balance: dollars });
  const give = await app.request(giver, 'POST', '/statuses/api/gives', { postId: link.id, amount: dollars });
  if (give.status !== 201) throw new Error(`give to ${owner.username}: ${give.status} ${JSON.stringify(give.body)}`);
  return link.id;
}

export interface ApiAccount {
  username: string;
  email: string;
  password: string;
  userId: string;
  token: string;
  /** Codes of the account's own unused invites. */
  inviteCodes: string[];
}

/** Registers an account through the API with an invite code, or through someone's shared link (setup for stories about later steps). */
export async function registerViaApi(app: RunningApp, invite: string | { via: string }, username: string): Promise<ApiAccount> {
  const email = `${username}@example.com`;
  const password = 'gifts-4-all';
  // Well past the age gate.
  const dateOfBirth = '1990-01-01';
  const res = await fetch(`${app.url}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, email, password, dateOfBirth, ...(typeof invite === 'string' ? { inviteCode: invite } : invite) }),
  });
  const body = (await res.json()) as { token: string; user: { _id: string } };
  if (res.status !== 201) throw new Error(`register ${username}: ${res.status} ${JSON.stringify(body)}`);
  const invites = (await (await fetch(`${app.url}/invites/${body.user._id}`, { headers: { 'x-auth-token': body.token } })).json()) as {
    code: string;
    status: string;
  }[];
  return {
    username,
    email,
    password,
    userId: body.user._id,
    token: body.token,
    inviteCodes: invites.filter((i) => i.status === 'available').map((i) => i.code),
  };
}

const made = new Map<string, number>();
/** A new account on each call (so a story's retry starts clean), joined with one of `inviter`'s invites still unused. */
export async function freshAccount(app: RunningApp, inviter: ApiAccount, prefix: string): Promise<ApiAccount> {
  const n = (made.get(prefix) ?? 0) + 1;
  made.set(prefix, n);
  const invites = await app.call<{ code: string; status: string }[]>(inviter, 'GET', `/invites/${inviter.userId}`);
  const code = invites.find((i) => i.status === 'available')?.code;
  if (!code) throw new Error(`${inviter.username} has no invite left for ${prefix}${n}`);
  return registerViaApi(app, code, `${prefix}${n}`);
}

/**
 * The app and a browser for one file's stories, then the accounts named, registered in order: the
 * first with the app's own invite, each other with one of the first one's invites.
 */
export async function startStories(
  usernames: string[],
  env: Record<string, string> = {},
): Promise<[app: RunningApp, browser: Browser, ...accounts: ApiAccount[]]> {
  const [app, browser] = await Promise.all([startApp(env), launchBrowser()]);
  const accounts: ApiAccount[] = [];
  for (const [i, username] of usernames.entries()) {
    const invite = i === 0 ? app.inviteUrl.split('/').pop()! : accounts[0].inviteCodes[i - 1];
    accounts.push(await registerViaApi(app, invite, username));
  }
  return [app, browser, ...accounts];
}

/** Closes what startStories opened (either is missing when starting failed). */
export async function stopStories(app: RunningApp | undefined, browser: Browser | undefined): Promise<void> {
  await browser?.close();
  await app?.stop();
}

/** Logs in through the login page, as a person would. */
export async function logIn(page: Page, app: RunningApp, account: ApiAccount): Promise<void> {
  await page.goto(`${app.url}/login`);
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL(`${app.url}/`);
}

/** A fresh browser context logged in as `account` (phone-sized unless told otherwise). */
export async function openAs(
  browser: Browser,
  app: RunningApp,
  account: ApiAccount,
  options: { viewport?: { width: number; height: number }; clipboard?: boolean } = {},
): Promise<Page> {
  const context = await browser.newContext({ viewport: options.viewport ?? VIEWPORTS.phone });
  if (options.clipboard) await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.url });
  const page = await context.newPage();
  await logIn(page, app, account);
  return page;
}

/** The top bar's balance button. */
export const balanceButton = (page: Page) => page.getByRole('button', { name: /^Balance \$/ });

/** Waits until the top bar's balance reads `dollars` (e.g. '$20.00'). */
export async function balanceShows(page: Page, dollars: string): Promise<void> {
  await expect.poll(async () => (await balanceButton(page).textContent())?.replace(/\s+/g, ''), { timeout: 10_000 }).toContain(dollars);
}

/** Makes a give link of `amount` dollars for `quantity` people on the share page, as a person would. */
export async function createGiveLink(page: Page, app: RunningApp, amount: string, quantity: string): Promise<void> {
  await page.goto(`${app.url}/share`);
  await page.getByRole('radio', { name: 'Give' }).check();
  await page.getByRole('radio', { name: 'Currency' }).check();
  await page.getByLabel('Amount').fill(amount);
  await page.getByLabel('Quantity').fill(quantity);
  await page.getByRole('button', { name: 'Create' }).click();
  await page.getByText('Your link is ready').waitFor();
}

/** Deposits sandbox money through the balance dialog, as a person would. */
export async function deposit(page: Page, amount: string): Promise<void> {
  await balanceButton(page).click();
  const dialog = page.getByRole('dialog', { name: 'Your balance' });
  await dialog.getByLabel('Amount').fill(amount);
  await dialog.getByRole('button', { name: 'Deposit' }).click();
  await dialog.getByText(/Deposited \$/).waitFor();
  await dialog.getByRole('button', { name: 'Close' }).first().click();
}
