import { describe, expect, it } from 'vitest';
import {
  SHARE_TEMPLATES,
  TYPE_LINK_MS,
  TYPE_TEXT_MS,
  WISHLIST_SHARE_TEXT,
  dollarWord,
  linkShareText,
  shareImageFileName,
  shareImagePath,
  shareMessage,
  shareUrl,
  smsUrl,
  spokenAmount,
  tweetIntentUrl,
  typedAt,
  typingDuration,
  type ShareTextLink,
} from './share.js';

const link = (over: Partial<ShareTextLink>): ShareTextLink => ({
  giveorreceive: 'give',
  type: 'currency',
  amount: 5,
  remainingQuantity: 1,
  title: null,
  ...over,
});

describe('share texts: give or receive × currency or item', () => {
  it.each<[string, Partial<ShareTextLink>, string]>([
    ['give, currency, one use', {}, "I'm giving away 5 dollars! Be the first to open my Giftlink and claim it:"],
    ['give, currency, 3 uses', { remainingQuantity: 3 }, "I'm giving away 5 dollars to 3 people! Open my Giftlink to claim yours:"],
    [
      'give, currency, 2 uses',
      { remainingQuantity: 2, amount: 10 },
      "I'm giving away 10 dollars to 2 people! Open my Giftlink to claim yours:",
    ],
    ['give, currency, no use left', { remainingQuantity: 0 }, "I'm giving away 5 dollars! Be the first to open my Giftlink and claim it:"],
    ['give, $1', { amount: 1 }, "I'm giving away 1 dollar! Be the first to open my Giftlink and claim it:"],
    ['give, $1.99', { amount: 1.99 }, "I'm giving away 1.99 dollar! Be the first to open my Giftlink and claim it:"],
    ['give, $2', { amount: 2 }, "I'm giving away 2 dollars! Be the first to open my Giftlink and claim it:"],
    [
      'give, $2.50 to 4',
      { amount: 2.5, remainingQuantity: 4 },
      "I'm giving away 2.50 dollars to 4 people! Open my Giftlink to claim yours:",
    ],
    ['give, $1,250', { amount: 1250 }, "I'm giving away 1,250 dollars! Be the first to open my Giftlink and claim it:"],
    [
      'give, item',
      { type: 'item', title: 'Blue Mug', amount: 12.5 },
      "I'm giving away Blue Mug! Be the first to open my Giftlink and claim it:",
    ],
    [
      'give, item, 2 uses',
      { type: 'item', title: 'Blue Mug', remainingQuantity: 2 },
      "I'm giving away Blue Mug to 2 people! Open my Giftlink to claim yours:",
    ],
    ['give, item without title', { type: 'item', title: null }, "I'm giving away an item! Be the first to open my Giftlink and claim it:"],
    [
      'receive, currency',
      { giveorreceive: 'receive', amount: 10 },
      "I'm hoping someone will gift me 10 dollars! Send it anonymously with my Giftlink:",
    ],
    [
      'receive, $1.50',
      { giveorreceive: 'receive', amount: 1.5 },
      "I'm hoping someone will gift me 1.50 dollar! Send it anonymously with my Giftlink:",
    ],
    [
      'receive, currency, 3 uses',
      { giveorreceive: 'receive', remainingQuantity: 3 },
      "I'm hoping 3 people will each gift me 5 dollars! Send yours anonymously with my Giftlink:",
    ],
    [
      'receive, item',
      { giveorreceive: 'receive', type: 'item', title: '  Noise  cancelling headphones ' },
      "I'm hoping someone will gift me Noise cancelling headphones! Send it anonymously with my Giftlink:",
    ],
  ])('%s', (_name, over, expected) => {
    expect(linkShareText(link(over))).toBe(expected);
  });

  it("uses 'people' exactly when more than one use remains", () => {
    for (const remainingQuantity of [0, 1, 2, 3, 10, 1000]) {
      for (const giveorreceive of ['give', 'receive'] as const) {
        const text = linkShareText(link({ giveorreceive, remainingQuantity }));
        expect(text.includes(`${remainingQuantity} people`)).toBe(remainingQuantity > 1);
        expect(text.includes('people')).toBe(remainingQuantity > 1);
      }
    }
  });

  it("says 'dollar' up to 1.99 and 'dollars' from there", () => {
    expect([1, 1.01, 1.5, 1.99].map(dollarWord)).toEqual(['dollar', 'dollar', 'dollar', 'dollar']);
    expect([2, 2.01, 5, 100, 999_999.99].map(dollarWord)).toEqual(['dollars', 'dollars', 'dollars', 'dollars', 'dollars']);
    expect([1, 2.5, 10, 1250.75].map(spokenAmount)).toEqual(['1', '2.50', '10', '1,250.75']);
  });

  it('cuts a long item title on a word boundary', () => {
    const title = 'Wireless Bluetooth Over Ear Headphones with Active Noise Cancelling and 40 Hour Battery Life';
    const text = linkShareText(link({ type: 'item', title }));
    expect(text).toBe(
      "I'm giving away Wireless Bluetooth Over Ear Headphones with Active Noise…! Be the first to open my Giftlink and claim it:",
    );
    expect(text.length).toBeLessThan(140);
  });

  it('has a text for wishlists too', () => {
    expect(WISHLIST_SHARE_TEXT).toMatch(/wishlist/);
    expect(shareMessage('Hi:', 'http://x/link/a')).toBe('Hi: http://x/link/a');
  });
});

describe('share addresses', () => {
  it('names each template and format in the image path, escaping the username', () => {
    expect(SHARE_TEMPLATES).toEqual(['standard', 'purple-gradient', 'green-gradient', 'orange-gradient', 'blue-gradient']);
    expect(shareImagePath('link', 'ada', 'blue-gradient', 'story')).toBe('/links/ada/image?template=blue-gradient&format=story');
    expect(shareImagePath('wishlist', 'a b', 'standard', 'card')).toBe('/wishlists/a%20b/image?template=standard&format=card');
    expect(shareImageFileName('link', 'ada', 'standard', 'card')).toBe('giftlink-link-ada-standard-card.png');
    expect(shareImageFileName('wishlist', '../x', 'standard', 'story')).toBe('giftlink-wishlist-x-standard-story.png');
  });

  it('tags the shared URL with its target', () => {
    expect(shareUrl('http://localhost:3000/link/ada', 'instagram')).toBe('http://localhost:3000/link/ada?utm_source=instagram');
    expect(shareUrl('https://g.example/wishlist/ada?utm_source=x', 'messages')).toBe('https://g.example/wishlist/ada?utm_source=messages');
    expect(shareUrl('https://g.example/link/ada', 'twitter')).toBe('https://g.example/link/ada?utm_source=x');
  });

  it("builds X's post intent and the sms: link with the text encoded", () => {
    expect(tweetIntentUrl('Gift me 5 dollars & more!', 'http://g.example/link/ada?utm_source=x')).toBe(
      'https://twitter.com/intent/tweet?text=Gift%20me%205%20dollars%20%26%20more!&url=http%3A%2F%2Fg.example%2Flink%2Fada%3Futm_source%3Dx',
    );
    expect(smsUrl("I'm giving away 5 dollars! http://g.example/link/ada")).toBe(
      "sms:?&body=I'm%20giving%20away%205%20dollars!%20http%3A%2F%2Fg.example%2Flink%2Fada",
    );
  });
});

describe('typing schedule', () => {
  it('types the text at 80 ms a character, then the link at 50 ms', () => {
    expect(TYPE_TEXT_MS).toBe(80);
    expect(TYPE_LINK_MS).toBe(50);
    expect(typedAt(0, 10, 4)).toEqual({ text: 0, link: 0 });
    expect(typedAt(79, 10, 4)).toEqual({ text: 0, link: 0 });
    expect(typedAt(80, 10, 4)).toEqual({ text: 1, link: 0 });
    expect(typedAt(799, 10, 4)).toEqual({ text: 9, link: 0 });
    expect(typedAt(800, 10, 4)).toEqual({ text: 10, link: 0 });
    expect(typedAt(850, 10, 4)).toEqual({ text: 10, link: 1 });
    expect(typedAt(1000, 10, 4)).toEqual({ text: 10, link: 4 });
    expect(typedAt(99_999, 10, 4)).toEqual({ text: 10, link: 4 });
    expect(typingDuration(10, 4)).toBe(1000);
  });
});
