import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { CustomScheme, Protocol } from 'electron';
import { beforeAll, describe, expect, it } from 'vitest';
import { APP_URL, handleAppProtocol, registerAppScheme, serveAppRequest } from './protocol.js';

const CSP = "default-src 'self'";
let root: string;

beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'giftlink-renderer-'));
  mkdirSync(path.join(root, 'assets'));
  writeFileSync(path.join(root, 'index.html'), '<!doctype html><div id="root"></div>');
  writeFileSync(path.join(root, 'assets/app.js'), 'console.log(1)');
  writeFileSync(path.join(path.dirname(root), 'secret.txt'), 'secret');
});

describe('app:// protocol', () => {
  it('registers app as a standard, secure scheme with fetch before ready', () => {
    const registered: CustomScheme[][] = [];
    registerAppScheme({ registerSchemesAsPrivileged: (schemes) => void registered.push(schemes) });
    expect(registered).toHaveLength(1);
    expect(registered[0][0]).toMatchObject({ scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } });
  });

  it('serves the app with its CSP, assets with their type, and routes as the app', async () => {
    const handlers = new Map<string, (request: Request) => Promise<Response> | Response>();
    const protocol = {
      handle: (scheme: string, handler: (request: Request) => Promise<Response> | Response) => void handlers.set(scheme, handler),
    };
    handleAppProtocol(protocol as Pick<Protocol, 'handle'>, root, CSP);
    const handler = handlers.get('app');
    if (!handler) throw new Error('no app handler');

    const page = await handler(new Request(`${APP_URL}/messages/abc`));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toBe(CSP);
    expect(await page.text()).toContain('id="root"');

    const script = await handler(new Request(`${APP_URL}/assets/app.js`));
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(script.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await script.text()).toBe('console.log(1)');
  });

  it('answers 404 for a missing asset and 403 for a way out of the renderer folder', async () => {
    expect((await serveAppRequest(`${APP_URL}/assets/nope.js`, root, CSP)).status).toBe(404);
    expect((await serveAppRequest(`${APP_URL}/..%2Fsecret.txt`, root, CSP)).status).toBe(403);
    expect((await serveAppRequest('app://other/index.html', root, CSP)).status).toBe(403);
  });
});
