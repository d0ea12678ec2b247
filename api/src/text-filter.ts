import { DataSet, RegExpMatcher, englishDataset, englishRecommendedTransformers } from 'obscenity';
import { BIO_NOT_ALLOWED, MESSAGE_NOT_ALLOWED, NAME_NOT_ALLOWED } from '../contract/texts.js';
import { badRequest } from './errors.js';

/**
 * The abuse filter for what one person writes to or about others: messages (HTTP and socket, one
 * path: conversations/service.ts `sendMessage`), bios, and the names a profile shows (username,
 * display name, location). It refuses slurs, never rewrites the
 * text. Same library as the catalogue search's blocklist (`obscenity`, contract/blocklist.ts), with
 * its English dataset and recommended transformers (l33t-speak, look-alike characters, stretched
 * letters), narrowed to the dataset's slurs: racial, ethnic, homophobic, transphobic, ableist and
 * gendered ones. Ordinary swearing between people who chat is not refused, and the dataset's own
 * whitelist keeps words like 'Scunthorpe' or 'assessment' out. 'negro' is left out on purpose: it
 * is everyday Spanish and Portuguese.
 */
export const SLURS: readonly string[] = [
  'abeed',
  'abo',
  'africoon',
  'arabush',
  'boonga',
  'chingchong',
  'chink',
  'cunt',
  'dyke',
  'fag',
  'kike',
  'nigger',
  'retard',
  'slut',
  'spastic',
  'tranny',
  'whore',
];

/** Innocent words the slur patterns would otherwise catch (a flame retardant, a doctor on spasticity). */
const INNOCENT_WORDS = ['retardant', 'spasticity', 'fagott'];

let matcher: RegExpMatcher | undefined;

function getMatcher(): RegExpMatcher {
  if (!matcher) {
    const slurs = new Set(SLURS);
    // A copy: removePhrasesIf changes the set it is called on, and the catalogue's blocklist
    // (contract/blocklist.ts) uses the shared englishDataset whole.
    const built = new DataSet<{ originalWord?: string }>()
      .addAll(englishDataset)
      .removePhrasesIf((phrase) => !slurs.has(phrase.metadata?.originalWord ?? ''))
      .build();
    matcher = new RegExpMatcher({
      ...built,
      whitelistedTerms: [...(built.whitelistedTerms ?? []), ...INNOCENT_WORDS],
      ...englishRecommendedTransformers,
    });
  }
  return matcher;
}

/** True when the text contains a slur. */
export function containsAbuse(text: string): boolean {
  return getMatcher().hasMatch(text);
}

/** Refuses a message with a slur (400 `abusive_text`). */
export function checkMessageText(text: string): void {
  if (containsAbuse(text)) throw badRequest(MESSAGE_NOT_ALLOWED, 'abusive_text');
}

/** Refuses a bio with a slur (400 `abusive_text`). */
export function checkBio(bio: string): void {
  if (containsAbuse(bio)) throw badRequest(BIO_NOT_ALLOWED, 'abusive_text');
}

/** Refuses a username, display name or location with a slur (400 `abusive_text`). */
export function checkName(...names: (string | null | undefined)[]): void {
  if (names.some((name) => name && containsAbuse(name))) throw badRequest(NAME_NOT_ALLOWED, 'abusive_text');
}
