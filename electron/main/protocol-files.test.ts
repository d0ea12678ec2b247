import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { mimeTypeOf, resolveAppFile } from './protocol-files.js';

const root = path.resolve('/app/out/renderer');
const files = new Set(
  ['index.html', 'assets/index-abc.js', 'assets/index-abc.css', 'favicon.svg', 'onboarding/step 1.png'].map((f) => path.join(root, f)),
);
const isFile = (file: string) => files.has(file);
const resolve = (url: string) => resolveAppFile(url, root, isFile);

describe('app:// request → renderer file', () => {
  it.each([
    ['app://giftlink/', 'index.html', 'text/html; charset=utf-8'],
    ['app://giftlink', 'index.html', 'text/html; charset=utf-8'],
    ['app://giftlink/index.html', 'index.html', 'text/html; charset=utf-8'],
    ['app://giftlink/assets/index-abc.js', 'assets/index-abc.js', 'text/javascript; charset=utf-8'],
    ['app://giftlink/assets/index-abc.css?v=1#x', 'assets/index-abc.css', 'text/css; charset=utf-8'],
    ['app://giftlink/favicon.svg', 'favicon.svg', 'image/svg+xml'],
    ['app://giftlink/onboarding/step%201.png', 'onboarding/step 1.png', 'image/png'],
    // In-app routes fall back to the app (SPA).
    ['app://giftlink/messages/3f2a', 'index.html', 'text/html; charset=utf-8'],
    ['app://giftlink/link/ana', 'index.html', 'text/html; charset=utf-8'],
    ['app://giftlink/profile/ana/settings/', 'index.html', 'text/html; charset=utf-8'],
  ])('%s serves %s as %s', (url, file, mime) => {
    expect(resolve(url)).toEqual({ status: 200, file: path.join(root, file), mime });
  });

  it.each([
    ['app://giftlink/assets/missing.js', 404],
    ['app://giftlink/profile/ana.png', 404],
    ['app://giftlink/..%2F..%2Fetc%2Fpasswd', 403],
    ['app://giftlink/assets/..%2f..%2f..%2fetc/passwd', 403],
    ['app://giftlink/assets/..%5C..%5Csecret', 403],
    ['app://giftlink/a%00.js', 403],
    ['app://giftlink/%E0%A4%A', 400],
    ['app://evil/index.html', 403],
    ['file:///etc/passwd', 403],
    ['https://giftlink/index.html', 403],
    ['not a url', 400],
  ])('%s is refused with %i', (url, status) => {
    expect(resolve(url)).toEqual({ status });
  });

  it('never resolves outside the root, whatever the path', () => {
    // The URL parser already folds plain and %2e dot segments; what is left is a route (the app).
    for (const url of ['app://giftlink/../../etc/passwd', 'app://giftlink/%2e%2e/%2e%2e/etc/passwd', 'app://giftlink//etc/passwd']) {
      const answer = resolve(url);
      expect(answer, url).toEqual({ status: 200, file: path.join(root, 'index.html'), mime: 'text/html; charset=utf-8' });
    }
  });

  it('knows the MIME types of what the build emits', () => {
    expect(mimeTypeOf('a.woff2')).toBe('font/woff2');
    expect(mimeTypeOf('a.webp')).toBe('image/webp');
    expect(mimeTypeOf('a.unknown')).toBe('application/octet-stream');
  });
});
