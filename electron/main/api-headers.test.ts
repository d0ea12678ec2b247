import type { Session } from 'electron';
import { describe, expect, it } from 'vitest';
import { apiOriginOf } from './api-origin.js';
import { apiUrlPatterns, installApiHeaders, isApiRequest, withApiHeaders } from './api-headers.js';

const api = apiOriginOf('https://api.giftlink.example/', true);

describe('the API address fixed at build time', () => {
  it('derives the HTTP and socket origins', () => {
    expect(api).toEqual({ http: 'https://api.giftlink.example', ws: 'wss://api.giftlink.example' });
    expect(apiOriginOf(undefined, false)).toEqual({ http: 'http://localhost:3000', ws: 'ws://localhost:3000' });
    expect(apiOriginOf('http://127.0.0.1:4000/api', false)).toEqual({ http: 'http://127.0.0.1:4000', ws: 'ws://127.0.0.1:4000' });
  });

  it('requires https in a packaged build and refuses other schemes or credentials', () => {
    expect(() => apiOriginOf('http://api.giftlink.example', true)).toThrow(/https in a packaged build/);
    expect(() => apiOriginOf(undefined, true)).toThrow(/https/);
    expect(() => apiOriginOf('ftp://x', false)).toThrow(/http\(s\)/);
    expect(() => apiOriginOf('nope', false)).toThrow(/not a URL/);
    expect(() => apiOriginOf('https://u:p@api.example', true)).toThrow(/credentials/);
  });
});

describe('API request headers', () => {
  it('filters the API origin and its socket only', () => {
    expect(apiUrlPatterns(api)).toEqual(['https://api.giftlink.example/*', 'wss://api.giftlink.example/*']);
  });

  it.each([
    ['https://api.giftlink.example/api/me', true],
    ['wss://api.giftlink.example/socket.io/?EIO=4&transport=websocket', true],
    ['https://api.giftlink.example:443/x', true],
    ['https://api.giftlink.example.evil.com/x', false],
    ['http://api.giftlink.example/x', false],
    ['https://api.giftlink.example:8443/x', false],
    ['https://stripe.com/v1', false],
    ['app://giftlink/index.html', false],
    ['garbage', false],
  ])('%s is an API request: %s', (url, expected) => {
    expect(isApiRequest(url, api)).toBe(expected);
  });

  it('adds the token and the version to API requests, replacing any the page set', () => {
    const headers = withApiHeaders(
      'https://api.giftlink.example/api/me',
      { Accept: 'application/json', 'X-Auth-Token': 'forged' },
      api,
      'tok',
      '0.1.0',
    );
    expect(headers).toEqual({ Accept: 'application/json', 'x-auth-token': 'tok', 'x-giftlink-version': '0.1.0' });
  });

  it('sends no token when signed out, and leaves other requests alone', () => {
    expect(withApiHeaders('https://api.giftlink.example/api/login', {}, api, null, '0.1.0')).toEqual({ 'x-giftlink-version': '0.1.0' });
    const other = { Accept: '*/*' };
    expect(withApiHeaders('https://images.example/a.png', other, api, 'tok', '0.1.0')).toBe(other);
  });

  it("installs on the session's webRequest with the keychain's token", async () => {
    type Listener = (
      details: { url: string; requestHeaders: Record<string, string> },
      callback: (response: { requestHeaders: Record<string, string> }) => void,
    ) => void;
    let filter: { urls: string[] } | undefined;
    let listener: Listener | undefined;
    const session = {
      webRequest: {
        onBeforeSendHeaders: (f: { urls: string[] }, l: Listener) => {
          filter = f;
          listener = l;
        },
      },
    };
    let token: string | null = 'secret-token';
    installApiHeaders(session as unknown as Pick<Session, 'webRequest'>, { api, version: '1.2.3', loadToken: async () => token });
    expect(filter).toEqual({ urls: apiUrlPatterns(api) });
    const send = (url: string) =>
      new Promise<Record<string, string>>((resolve) =>
        listener?.({ url, requestHeaders: { Origin: 'app://giftlink' } }, (r) => resolve(r.requestHeaders)),
      );
    expect(await send('wss://api.giftlink.example/socket.io/')).toEqual({
      Origin: 'app://giftlink',
      'x-auth-token': 'secret-token',
      'x-giftlink-version': '1.2.3',
    });
    token = null;
    expect(await send('https://api.giftlink.example/api/me')).toEqual({ Origin: 'app://giftlink', 'x-giftlink-version': '1.2.3' });
  });

  it('still sends the request when the keychain fails', async () => {
    let done: Record<string, string> | undefined;
    const session = {
      webRequest: {
        onBeforeSendHeaders: (
          _f: unknown,
          l: (
            d: { url: string; requestHeaders: Record<string, string> },
            cb: (r: { requestHeaders: Record<string, string> }) => void,
          ) => void,
        ) => l({ url: 'https://api.giftlink.example/x', requestHeaders: {} }, (r) => (done = r.requestHeaders)),
      },
    };
    installApiHeaders(session as unknown as Pick<Session, 'webRequest'>, {
      api,
      version: '1.2.3',
      loadToken: () => Promise.reject(new Error('locked')),
      log: () => {},
    });
    await new Promise((r) => setTimeout(r, 0));
    expect(done).toEqual({ 'x-giftlink-version': '1.2.3' });
  });
});
