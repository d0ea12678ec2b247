/// <reference lib="dom" />
// The desktop shell's story in Chromium: the desktop's own renderer build (electron-vite, built here
// against this test's API as GIFTLINK_API_URL) served by the shell's real app:// handler
// (`serveAppRequest`, with the shell's CSP), the way `protocol.handle('app', …)` serves it in
// Electron. Chromium cannot register app://, so the page lives at a stand-in origin whose requests
// Playwright hands to that handler; the API is the real server (CORS_ORIGINS lists the stand-in
// origin as it lists app://giftlink). What it proves: the bundled app starts, deep routes load their
// assets, its API calls cross origins to the API, and the CSP blocks nothing the app needs.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiOriginOf, type ApiOrigin } from '../electron/main/api-origin.js';
import { serveAppRequest } from '../electron/main/protocol.js';
import { appContentSecurityPolicy } from '../electron/main/security.js';
import { launchBrowser, registerViaApi, screenshots, startApp, VIEWPORTS, type ApiAccount, type RunningApp } from './harness.js';

/** Stands in for app://giftlink: a secure (loopback) origin like it, which Chromium lets reach the loopback API. */
const PAGE_ORIGIN = 'http://giftlink.localhost';
const OUT = path.resolve('.tmp/e2e-shell/desktop');

let app: RunningApp;
let browser: Browser;
let ana: ApiAccount;
let api: ApiOrigin;

beforeAll(async () => {
  [app, browser] = await Promise.all([startApp({ CORS_ORIGINS: `app://giftlink,${PAGE_ORIGIN}` }), launchBrowser()]);
  api = apiOriginOf(app.url, false);
  execFileSync(process.execPath, ['node_modules/electron-vite/bin/electron-vite.js', 'build', '--outDir', OUT, '--logLevel', 'warn'], {
    env: { ...process.env, GIFTLINK_API_URL: app.url },
    stdio: 'pipe',
  });
  ana = await registerViaApi(app, app.inviteUrl.split('/').pop()!, 'ana');
  const link = await fetch(`${app.url}/links/create`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-auth-token': ana.token },
    body: JSON.stringify({ details: { giveorreceive: 'receive', type: 'currency', amount: 10 } }),
  });
  if (link.status !== 201) throw new Error(`link failed: ${link.status}`);
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

interface DesktopPage {
  page: Page;
  context: BrowserContext;
  /** CSP violations the page reported (directive and blocked URL). */
  violations: string[];
  /** Console errors and failed requests, shown when a step times out. */
  problems: string[];
}

/** A window on the bundled app, every page request answered by the shell's app:// handler. */
async function openDesktop(route: string, viewport: { width: number; height: number } = VIEWPORTS.desktop): Promise<DesktopPage> {
  const context = await browser.newContext({ viewport });
  // Chromium treats the intercepted stand-in as a public site reaching the loopback API (here on
  // 127.0.0.1); the real app talks to a public https API, so the local-network prompt is granted.
  await context.grantPermissions(['local-network-access'], { origin: PAGE_ORIGIN });
  const csp = appContentSecurityPolicy(api);
  await context.route(`${PAGE_ORIGIN}/**`, async (intercepted) => {
    const appUrl = intercepted.request().url().replace(PAGE_ORIGIN, 'app://giftlink');
    const res = await serveAppRequest(appUrl, path.join(OUT, 'renderer'), csp);
    await intercepted.fulfill({ status: res.status, headers: Object.fromEntries(res.headers), body: Buffer.from(await res.arrayBuffer()) });
  });
  await context.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.effectiveDirective} ${e.blockedURI}`));
  });
  const page = await context.newPage();
  const violations: string[] = [];
  const problems: string[] = [];
  page.on('console', (msg) => {
    if (/Content Security Policy/i.test(msg.text())) violations.push(msg.text());
    if (msg.type() === 'error') problems.push(msg.text());
  });
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.status()} ${response.request().method()} ${response.url()}`);
  });
  page.on('requestfailed', (request) => problems.push(`${request.url()} ${request.failure()?.errorText ?? ''}`));
  await page.goto(`${PAGE_ORIGIN}${route}`);
  return { page, context, violations, problems };
}

/** Every failed request and console error of the page (a signed-out session check answers 204, not 401). */
function unexpectedProblems(desktop: DesktopPage): string[] {
  return desktop.problems;
}

async function cspViolations(desktop: DesktopPage): Promise<string[]> {
  const reported = await desktop.page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);
  return [...reported, ...desktop.violations];
}

describe('the desktop app served over app://giftlink', () => {
  it('opens the bundled app with its Content-Security-Policy and nothing blocked', async () => {
    const desktop = await openDesktop('/');
    await desktop.page.getByRole('heading', { name: 'Receive gifts from people who love you' }).waitFor();
    const answer = await desktop.page.evaluate(async () => {
      const res = await fetch('/');
      return { csp: res.headers.get('content-security-policy'), type: res.headers.get('content-type') };
    });
    expect(answer.type).toBe('text/html; charset=utf-8');
    expect(answer.csp).toContain(`connect-src 'self' ${api.http} ${api.ws}`);
    await screenshots(desktop.page, 'desktop-shell-home');
    expect(await cspViolations(desktop)).toEqual([]);
    expect(unexpectedProblems(desktop)).toEqual([]);
    await desktop.context.close();
  });

  it("a deep route (a deep link's target) loads its assets and the API's data across origins", async () => {
    const desktop = await openDesktop('/link/ana', VIEWPORTS.phone);
    // The link's data came from the API origin (cross-origin, allowed by CORS_ORIGINS and connect-src).
    await desktop.page
      .getByRole('progressbar', { name: 'Gifts so far' })
      .first()
      .waitFor({ timeout: 15_000 })
      .catch(async (error: unknown) => {
        await desktop.page.screenshot({ path: 'test-results/screenshots/desktop-shell-link-failure.png' });
        throw new Error(`${String(error)}\n${desktop.problems.join('\n')}`);
      });
    await screenshots(desktop.page, 'desktop-shell-link');
    expect(await cspViolations(desktop)).toEqual([]);
    expect(unexpectedProblems(desktop)).toEqual([]);
    await desktop.context.close();
  });

  it('answers a missing asset with 404, never the app posing as a script', async () => {
    const desktop = await openDesktop('/login');
    await desktop.page.getByRole('button', { name: 'Log in' }).waitFor();
    const statuses = await desktop.page.evaluate(async () => ({
      missing: (await fetch('/assets/missing.js')).status,
      traversal: (await fetch('/assets/..%2F..%2Fmain%2Findex.js')).status,
      route: (await fetch('/messages/abc')).status,
    }));
    expect(statuses).toEqual({ missing: 404, traversal: 403, route: 200 });
    await desktop.context.close();
  });
});
