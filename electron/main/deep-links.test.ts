import { describe, expect, it } from 'vitest';
import { deepLinkFromArgv, parseDeepLink } from './deep-links.js';

const SITE = 'https://giftlink.example';

describe('deep links', () => {
  it.each([
    ['giftlink://link/ana', { kind: 'route', route: '/link/ana' }],
    ['giftlink://wishlist/ana.b_c-d', { kind: 'route', route: '/wishlist/ana.b_c-d' }],
    ['giftlink://link/ana/', { kind: 'route', route: '/link/ana' }],
    ['GIFTLINK://link/Ana', { kind: 'route', route: '/link/Ana' }],
    ['https://giftlink.example/link/ana', { kind: 'route', route: '/link/ana' }],
    ['https://giftlink.example/wishlist/ana', { kind: 'route', route: '/wishlist/ana' }],
    ['https://giftlink.example/messages/3f2a-11', { kind: 'route', route: '/messages/3f2a-11' }],
    ['https://giftlink.example/notifications', { kind: 'route', route: '/notifications' }],
    ['https://giftlink.example/register?via=ana', { kind: 'route', route: '/register?via=ana' }],
    ['https://giftlink.example/invite/abc123', { kind: 'route', route: '/invite/abc123' }],
    // Not a page of the app, or not the app's scheme: the system browser, http(s) only.
    ['https://giftlink.example/api/me', { kind: 'external', url: 'https://giftlink.example/api/me' }],
    ['https://giftlink.example/link/ana/extra', { kind: 'external', url: 'https://giftlink.example/link/ana/extra' }],
    ['https://giftlink.example.evil.com/link/ana', { kind: 'external', url: 'https://giftlink.example.evil.com/link/ana' }],
    ['http://giftlink.example/link/ana', { kind: 'external', url: 'http://giftlink.example/link/ana' }],
    ['https://user:pw@giftlink.example/link/ana', { kind: 'external', url: 'https://user:pw@giftlink.example/link/ana' }],
    ['https://example.com/x', { kind: 'external', url: 'https://example.com/x' }],
    // Anything else is ignored.
    ['giftlink://messages/abc', { kind: 'ignore' }],
    ['giftlink://link/', { kind: 'ignore' }],
    ['giftlink://link/ana/more', { kind: 'ignore' }],
    ['giftlink://link/..%2F..%2Fsettings', { kind: 'ignore' }],
    ['giftlink://link/%3Cscript%3E', { kind: 'ignore' }],
    ['giftlink://link/averyveryverylongusername', { kind: 'ignore' }],
    ['file:///etc/passwd', { kind: 'ignore' }],
    ['javascript:alert(1)', { kind: 'ignore' }],
    ['app://giftlink/link/ana', { kind: 'ignore' }],
    ['not a url', { kind: 'ignore' }],
    ['', { kind: 'ignore' }],
  ])('%s → %j', (url, expected) => {
    expect(parseDeepLink(url, SITE)).toEqual(expected);
  });

  it('maps links under a site with a path prefix', () => {
    expect(parseDeepLink('https://example.org/giftlink/link/ana', 'https://example.org/giftlink/')).toEqual({
      kind: 'route',
      route: '/link/ana',
    });
    expect(parseDeepLink('https://example.org/other/link/ana', 'https://example.org/giftlink')).toEqual({
      kind: 'external',
      url: 'https://example.org/other/link/ana',
    });
  });

  it('maps a development site on http to its own pages', () => {
    expect(parseDeepLink('http://localhost:3000/link/ana', 'http://localhost:3000')).toEqual({ kind: 'route', route: '/link/ana' });
  });

  it('finds the deep link among a second launch’s arguments', () => {
    expect(deepLinkFromArgv(['/opt/Giftlink/giftlink', '--no-sandbox', 'giftlink://link/ana'])).toBe('giftlink://link/ana');
    expect(deepLinkFromArgv(['C:\\Giftlink.exe', '--allow-file-access-from-files'])).toBeNull();
  });
});
