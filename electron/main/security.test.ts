import { describe, expect, it } from 'vitest';
import { isAllowedExternal, isAllowedNavigation } from './security.js';

describe('desktop window rules', () => {
  it('opens only http(s) links externally', () => {
    expect(isAllowedExternal('https://example.com/x')).toBe(true);
    expect(isAllowedExternal('http://example.com')).toBe(true);
    for (const bad of ['file:///etc/passwd', 'javascript:alert(1)', 'smb://host/share', 'not a url', ''])
      expect(isAllowedExternal(bad), bad).toBe(false);
  });

  it('keeps navigation on the Giftlink site', () => {
    const site = 'https://giftlink.example';
    expect(isAllowedNavigation(site, 'https://giftlink.example/link/ana')).toBe(true);
    expect(isAllowedNavigation(site, 'https://giftlink.example.evil.com/')).toBe(false);
    expect(isAllowedNavigation(site, 'http://giftlink.example/')).toBe(false);
    expect(isAllowedNavigation(site, 'garbage')).toBe(false);
  });
});
