import { afterEach, describe, expect, it, vi } from 'vitest';
import { NETWORK_ERROR } from '../../../api/contract/texts';

// The API base URL: '' on the website (nothing changes), the hosted API's origin in the desktop
// build (VITE_GIFTLINK_API_URL, set by electron.vite.config.ts). Read once, when the client loads.
async function clientWith(apiUrl: string | undefined) {
  vi.resetModules();
  vi.stubEnv('VITE_GIFTLINK_API_URL', apiUrl ?? '');
  return import('./client');
}

afterEach(() => {
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
});

describe('the API base URL', () => {
  it('is the same origin on the website: paths and pictures stay as they are', async () => {
    const { API_BASE_URL, apiUrl, mediaUrl } = await clientWith(undefined);
    expect(API_BASE_URL).toBe('');
    expect(apiUrl('/api/auth/me')).toBe('/api/auth/me');
    expect(mediaUrl('/uploads/a.webp')).toBe('/uploads/a.webp');
  });

  it("is the API's origin in the desktop build, for API calls and the API's pictures only", async () => {
    const { API_BASE_URL, apiUrl, mediaUrl } = await clientWith('https://api.giftlink.example/');
    expect(API_BASE_URL).toBe('https://api.giftlink.example');
    expect(apiUrl('/links/ada')).toBe('https://api.giftlink.example/links/ada');
    expect(apiUrl('https://elsewhere.example/x')).toBe('https://elsewhere.example/x');
    expect(apiUrl('//elsewhere.example/x')).toBe('//elsewhere.example/x');
    for (const path of [
      '/uploads/a.webp',
      '/catalog/images/mug.jpg',
      '/links/ada/image?template=standard&format=card',
      '/wishlists/a%20b/image',
    ])
      expect(mediaUrl(path), path).toBe(`https://api.giftlink.example${path}`);
    // The app's own files (bundled, served from app://giftlink) and other hosts are left alone.
    for (const url of [
      '/onboarding/instagram.svg',
      '/assets/logo-abc.svg',
      'https://i.ebayimg.com/x.jpg',
      'data:image/png;base64,x',
      '/links/ada',
    ])
      expect(mediaUrl(url), url).toBe(url);
  });

  it("points the pictures in the API's answers at the API in the desktop build, and nothing else", async () => {
    const answer = {
      user: { profilePicture: '/uploads/p.webp', coverPicture: null, bio: '/uploads/not-a-picture' },
      items: [{ imageUrl: '/catalog/images/mug.jpg', allImages: ['/catalog/images/mug.jpg', 'https://i.ebayimg.com/x.jpg'] }],
    };
    const calls: string[] = [];
    vi.stubGlobal('fetch', async (url: string) => {
      calls.push(url);
      return new Response(JSON.stringify(answer), { status: 200, headers: { 'content-type': 'application/json' } });
    });
    const desktop = await clientWith('http://localhost:3000');
    expect(await desktop.call('GET /api/auth/me', {})).toEqual({
      user: { profilePicture: 'http://localhost:3000/uploads/p.webp', coverPicture: null, bio: '/uploads/not-a-picture' },
      items: [
        {
          imageUrl: 'http://localhost:3000/catalog/images/mug.jpg',
          allImages: ['http://localhost:3000/catalog/images/mug.jpg', 'https://i.ebayimg.com/x.jpg'],
        },
      ],
    });
    expect(calls).toEqual(['http://localhost:3000/api/auth/me']);
    const web = await clientWith(undefined);
    expect(await web.call('GET /api/auth/me', {})).toEqual(answer);
    expect(calls[1]).toBe('/api/auth/me');
  });
});

/** A fetch that answers each call with the next of `answers` (an Error: the connection failed), recording what was sent. */
function fetchAnswering(...answers: (Response | Error)[]) {
  const sent: { url: string; method?: string; headers: Headers }[] = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    sent.push({ url, method: init.method, headers: new Headers(init.headers) });
    const next = answers.shift();
    if (!next || next instanceof Error) throw next ?? new TypeError('no answer');
    return next;
  });
  return sent;
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('a request', () => {
  it('sends a read whose connection failed once more, and only once', async () => {
    const { call } = await clientWith(undefined);
    const sent = fetchAnswering(new TypeError('connection reset'), json({ ok: true }));
    expect(await call('GET /api/auth/me', {})).toEqual({ ok: true });
    expect(sent).toHaveLength(2);

    const again = fetchAnswering(new TypeError('down'), new TypeError('still down'), json({ ok: true }));
    await expect(call('GET /api/auth/me', {})).rejects.toMatchObject({ status: 0, code: 'network_error', message: NETWORK_ERROR });
    expect(again).toHaveLength(2);
  });

  it('sends a write once, unless its Idempotency-Key lets the server run it at most once', async () => {
    const { call, idempotent } = await clientWith(undefined);
    const plain = fetchAnswering(new TypeError('connection reset'), json({ ok: true }));
    await expect(call('POST /messages/send', { body: { conversationId: 'c1', text: 'hi' } })).rejects.toMatchObject({
      status: 0,
      code: 'network_error',
    });
    expect(plain).toHaveLength(1);

    const keyed = fetchAnswering(new TypeError('connection reset'), json({ ok: true }));
    expect(await call('POST /statuses/api/gives', { body: { postId: 'p1', amount: 5 }, ...idempotent('k1') })).toEqual({ ok: true });
    expect(keyed.map((s) => [s.method, s.headers.get('Idempotency-Key')])).toEqual([
      ['POST', 'k1'],
      ['POST', 'k1'],
    ]);
  });

  it("throws the API's error code and message, or the status when the answer has none", async () => {
    const { call, ApiError } = await clientWith(undefined);
    fetchAnswering(json({ error: 'over_goal', message: 'Only $5.00 is left to give.' }, 400));
    const refused = await call('POST /statuses/api/gives', { body: { postId: 'p1' } }).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ status: 400, code: 'over_goal', message: 'Only $5.00 is left to give.' });

    fetchAnswering(
      new Response('<html>Bad gateway</html>', { status: 502, statusText: 'Bad Gateway', headers: { 'content-type': 'text/html' } }),
    );
    await expect(call('GET /links/all', { query: {} })).rejects.toMatchObject({ status: 502, code: 'http_502', message: 'Bad Gateway' });
  });
});

describe('a call by route key', () => {
  it('fills in the path, encoded, and the query without its empty values', async () => {
    const { callPath } = await clientWith(undefined);
    expect(callPath('/links/profile/:username', { username: 'a b/c' }, { page: 2 })).toBe('/links/profile/a%20b%2Fc?page=2');
    expect(callPath('/conversations/:conversationId/gifts/:messageId/return', { conversationId: 'c', messageId: 'm' })).toBe(
      '/conversations/c/gifts/m/return',
    );
    expect(callPath('/api/wallet/history', undefined, { cursor: undefined, kind: '', page: null, limit: 0 })).toBe(
      '/api/wallet/history?limit=0',
    );
  });

  it('sends the method and path its key names, and its body as JSON', async () => {
    const { call } = await clientWith(undefined);
    const sent = fetchAnswering(json({ totalLinks: 1 }));
    await call('DELETE /api/links/:linkId', { params: { linkId: 'l 1' } });
    expect(sent.map((s) => [s.method, s.url])).toEqual([['DELETE', '/api/links/l%201']]);
  });
});

describe('errorMessage', () => {
  it("shows the API's own message, and the fallback for a failed connection or an answer without one", async () => {
    const { ApiError, errorMessage } = await clientWith(undefined);
    expect(errorMessage(new ApiError(400, 'over_goal', 'Only $5.00 is left to give.'), 'Something went wrong')).toBe(
      'Only $5.00 is left to give.',
    );
    expect(errorMessage(new ApiError(0, 'network_error', NETWORK_ERROR), 'Something went wrong')).toBe('Something went wrong');
    expect(errorMessage(new ApiError(502, 'http_502', 'Bad Gateway'), 'Something went wrong')).toBe('Something went wrong');
    expect(errorMessage(new Error('boom'), 'Something went wrong')).toBe('Something went wrong');
  });
});
