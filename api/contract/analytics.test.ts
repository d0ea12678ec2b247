import { describe, expect, it } from 'vitest';
import { EVENT_RULES, eventDetailsError, linkPageSource, visitorDevice, visitorSource } from './analytics.js';

describe('visitorSource', () => {
  it.each([
    ['instagram', 'instagram'],
    ['IG', 'instagram'],
    ['l.instagram.com', 'instagram'],
    ['https://www.instagram.com/stories/x', 'instagram'],
    ['x', 'x'],
    ['Twitter', 'x'],
    ['t.co', 'x'],
    ['https://mobile.twitter.com/a', 'x'],
    ['sms', 'messages'],
    ['messages', 'messages'],
    ['', 'direct'],
    [undefined, 'direct'],
    ['direct', 'direct'],
    ['facebook.com', 'other'],
    ['notinstagram.com', 'other'],
  ])('%s → %s', (raw, source) => expect(visitorSource(raw)).toBe(source));
});

describe('linkPageSource', () => {
  const origin = 'https://giftlink.example';
  it('takes utm_source first, then the referrer of another site, else direct', () => {
    expect(linkPageSource('?utm_source=instagram', 'https://t.co/x', origin)).toBe('instagram');
    expect(linkPageSource('', 'https://t.co/x', origin)).toBe('t.co');
    expect(linkPageSource('', `${origin}/`, origin)).toBe('direct');
    expect(linkPageSource('', '', origin)).toBe('direct');
  });
});

describe('visitorDevice', () => {
  it('tells phones from desktops', () => {
    expect(visitorDevice('Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) Mobile/15E148')).toBe('phone');
    expect(visitorDevice('Mozilla/5.0 (Linux; Android 14; Pixel 8) Mobile Safari/537.36')).toBe('phone');
    expect(visitorDevice('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) Safari/605.1.15')).toBe('desktop');
    expect(visitorDevice(undefined)).toBe('desktop');
  });
});

describe('eventDetailsError', () => {
  it('lets a null giveorreceive and a null link amount pass, as PRODUCT.md §5 says', () => {
    expect(eventDetailsError('linkShare', { giveorreceive: null, type: 'item' })).toBeNull();
    expect(eventDetailsError('linkTransaction', { _id: 'l', details: { type: 'item', amount: null } })).toBeNull();
    expect(eventDetailsError('wishlistTransaction', { price: -1, shippingPrice: 0, itemId: 'i' })).toBeNull();
    expect(eventDetailsError('bankTransaction', { amount: 5 })).toBeNull();
    expect(eventDetailsError('bankTransaction', { amount: Number.NaN })).toBe(EVENT_RULES.bankAmount);
  });
});
