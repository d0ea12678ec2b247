import { afterEach, describe, expect, it, vi } from 'vitest';

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
    expect(await desktop.api.get('/api/auth/me')).toEqual({
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
    expect(await web.api.get('/api/auth/me')).toEqual(answer);
    expect(calls[1]).toBe('/api/auth/me');
  });
});
