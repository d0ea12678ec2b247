import { describe, expect, it } from 'vitest';
import type { Link } from '../links/entity.js';
import type { User } from '../users/entity.js';
import type { WishlistItem } from '../wishlists/entity.js';
import { legalMarkup, linkMarkup, wishlistMarkup } from './pages.js';

/** What a hostile creator can type into the fields a visitor's page shows. */
const HOSTILE = `"><script>x('&amp;')</script><b a=' $&`;

const creator = { username: 'pat', displayName: '<img src=x onerror=alert(1)> Pat' } as User;
const itemLink = {
  type: 'item',
  giveOrReceive: 'receive',
  title: HOSTILE,
  photo: `https://img.example/a.png"${HOSTILE}`,
  amountCents: 2500,
  initialQuantity: 1,
  remainingQuantity: 1,
  totalCostCents: 2500,
  raisedCents: 0,
  gifts: 0,
  createdAt: new Date(),
} as Link;

describe("the visitor pages' first paint escapes what users wrote (Preact's escaping)", () => {
  it("a link item's title and photo, and never the display name", () => {
    const markup = linkMarkup(creator, itemLink);
    expect(markup).not.toContain('<script');
    expect(markup).not.toContain('<b a=');
    expect(markup).toContain('&lt;script>');
    expect(markup).toContain('src="https://img.example/a.png&quot;&quot;>&lt;script>');
    expect(markup).toContain('@pat is requesting');
    // Profiles are not public: a visitor's page names the creator by username only.
    expect(markup).not.toContain('onerror');
  });

  it("a wishlist item's title and picture", () => {
    const item = { id: 'w1', title: HOSTILE, priceCents: 999, imageUrl: `https://img.example/b.png"${HOSTILE}` } as WishlistItem;
    const markup = wishlistMarkup(creator, [item], 1);
    expect(markup).not.toContain('<script');
    expect(markup).not.toContain('<b a=');
    expect(markup).toContain('<span class="wish-row__title">&quot;>&lt;script>');
    expect(markup).toContain('$9.99');
  });
});

describe('the terms and the privacy notice', () => {
  it("paint in the shell, naming the address at the product's host to write to", () => {
    const terms = legalMarkup('terms', 'www.giftlink.example');
    expect(terms).toContain('<h1 id="legal-title">Terms of use</h1>');
    expect(terms).toContain('Write to privacy@giftlink.example.');
    const privacy = legalMarkup('privacy', 'giftlink.example');
    expect(privacy).toContain('<h1 id="legal-title">Privacy</h1>');
    expect(privacy).toContain('Anonymity does not cover everything');
  });
});
