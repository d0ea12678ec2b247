import { describe, expect, it } from 'vitest';
import { linkView } from './testing/links';
import { isOwnLink, linkPath, linkSentence, linkWhat } from './linkText';

describe("a link's words", () => {
  it('names an amount with its cents, an item by its title', () => {
    expect(linkWhat(linkView({ amount: 5 }))).toBe('$5.00');
    expect(linkWhat(linkView({ type: 'item', title: 'Blue mug', amount: 12 }))).toBe('Blue mug');
    expect(linkWhat(linkView({ type: 'item', title: null }))).toBe('an item');
  });

  it('say who gives or requests what, to its creator and to others', () => {
    const give = linkView({ giveorreceive: 'give', amount: 5 });
    expect(linkSentence(give, false)).toBe('User is giving $5.00');
    expect(linkSentence(give, true)).toBe('You are giving $5.00');
    expect(linkSentence(linkView({ amount: 20 }), false)).toBe('User is requesting $20.00');
  });
});

describe('isOwnLink', () => {
  it("is the signed-in user's own link whatever the case of the name", () => {
    expect(isOwnLink(linkView({}, { creatorUsername: 'Gina' }), 'gina')).toBe(true);
    expect(isOwnLink(linkView({}, { creatorUsername: 'gina' }), 'ginger')).toBe(false);
  });

  it('is nobody’s for a visitor', () => {
    expect(isOwnLink(linkView({}, { creatorUsername: 'gina' }), null)).toBe(false);
    expect(isOwnLink(linkView({}, { creatorUsername: 'gina' }), undefined)).toBe(false);
    expect(isOwnLink(linkView({}, { creatorUsername: '' }), '')).toBe(false);
  });
});

describe('linkPath', () => {
  it("is the creator's link page, the name escaped", () => {
    expect(linkPath('gina')).toBe('/link/gina');
    expect(linkPath('a b/c?d')).toBe('/link/a%20b%2Fc%3Fd');
  });
});
