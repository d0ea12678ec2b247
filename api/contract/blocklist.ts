import { RegExpMatcher, englishDataset, englishRecommendedTransformers } from 'obscenity';
import { BLOCKED_QUERY_MESSAGE } from './texts.js';

/**
 * Adult and profane searches are refused (PRODUCT.md §5: "Haha noo..."), by the API and by the
 * search bar before any request, with this one list. The terms come from the `obscenity`
 * library's English dataset, which also catches l33t-speak, look-alike characters and stretched
 * letters. The dataset is large: the renderer loads this module on demand.
 */
export { BLOCKED_QUERY_MESSAGE };

/**
 * Ordinary shopping words the library's patterns would otherwise catch (cumin, shiitake…).
 * Whitelisting only ever lets a word through; it never adds a blocked term.
 */
const SHOPPING_WORDS = ['cumin', 'shiitake', 'cockpit', 'cummerbund', 'dickies', 'pussy willow'];

let matcher: RegExpMatcher | undefined;

function getMatcher(): RegExpMatcher {
  if (!matcher) {
    const built = englishDataset.build();
    matcher = new RegExpMatcher({
      ...built,
      whitelistedTerms: [...(built.whitelistedTerms ?? []), ...SHOPPING_WORDS],
      ...englishRecommendedTransformers,
    });
  }
  return matcher;
}

/** True when the search query contains an adult or profane term. */
export function isBlockedQuery(q: string): boolean {
  return getMatcher().hasMatch(q);
}
