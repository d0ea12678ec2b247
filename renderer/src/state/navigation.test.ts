import { describe, expect, it } from 'vitest';
import { fromLocation, returnPath } from './navigation';

describe('returnPath: where login sends the user back', () => {
  it('is the page they came from, with its query and fragment', () => {
    expect(returnPath(fromLocation({ pathname: '/link/gina', search: '?amount=5', hash: '#give' }))).toBe('/link/gina?amount=5#give');
    expect(returnPath({ from: { pathname: '/wishlist/gina', search: '?x=1', hash: '' } })).toBe('/wishlist/gina?x=1');
    expect(returnPath({ from: { pathname: '/messages' } })).toBe('/messages');
  });

  it('is home for anything not an in-app path: another site, a protocol-relative address, garbage', () => {
    for (const from of ['https://evil.example/', '//evil.example/x', 'javascript:alert(1)', 'link/gina', '', 42, null, { pathname: 7 }])
      expect(returnPath({ from }), String(from)).toBe('/');
    expect(returnPath(undefined)).toBe('/');
    expect(returnPath('/link/gina')).toBe('/');
    expect(returnPath({})).toBe('/');
  });

  it('is home rather than back to login or joining', () => {
    expect(returnPath({ from: '/login' })).toBe('/');
    expect(returnPath({ from: '/login?next=1' })).toBe('/');
    expect(returnPath({ from: '/register/abc' })).toBe('/');
    expect(returnPath({ from: '/loginhelp' })).toBe('/loginhelp');
  });
});
