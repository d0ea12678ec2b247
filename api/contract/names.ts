import type { z } from 'zod';

/**
 * Names people show to each other may not pose as the anonymous giver. A recipient sees an
 * anonymous gift as coming from "Anonymous"; a username or display name that reads the same, or
 * that hides text or turns its direction around, could pass for it (or for someone else).
 */

/** Control characters: C0, DEL and C1. */
const CONTROL = /\p{Cc}/u;
/** Bidirectional embeddings, overrides and isolates, and the directional marks. */
const BIDI = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/u;
/** Zero-width spaces and joiners, the word joiner and the byte-order mark. */
const ZERO_WIDTH = /[\u200B-\u200D\u2060\uFEFF]/u;

/**
 * For each letter of "anonymous", the characters that read as it once compatibility forms
 * (NFKC), case and accents are folded away: Cyrillic, Greek and Armenian look-alikes, and the
 * digit 0 for o.
 */
const RESERVED = 'anonymous';
const LOOKALIKES: Record<string, string> = {
  a: 'aаɑα',
  n: 'nոηνп',
  o: 'oоοօ0',
  y: 'yуүγυ',
  m: 'mм',
  u: 'uυս',
  s: 'sѕꜱ',
};

/** The text a reader takes in: compatibility forms folded (NFKC), lower case, accents gone. */
function fold(value: string): string {
  return value.normalize('NFKC').toLowerCase().normalize('NFD').replace(/\p{M}/gu, '').trim();
}

/** True when `value` reads as "Anonymous": any case, full-width, accented or look-alike letters. */
export function readsAsAnonymous(value: string): boolean {
  const letters = [...fold(value)];
  return letters.length === RESERVED.length && letters.every((c, i) => LOOKALIKES[RESERVED[i]].includes(c));
}

/** Control and bidi characters: refused in every text a person shows others (bio, location). */
export function hiddenTextProblem(label: string, value: string): string | undefined {
  if (CONTROL.test(value)) return `${label} may not contain control characters.`;
  if (BIDI.test(value)) return `${label} may not contain characters that change the text direction.`;
  return undefined;
}

/** What is wrong with a name (username or display name), or undefined when it is fine. */
export function nameProblem(label: string, value: string): string | undefined {
  const hidden = hiddenTextProblem(label, value);
  if (hidden) return hidden;
  if (ZERO_WIDTH.test(value)) return `${label} may not contain invisible characters.`;
  if (readsAsAnonymous(value)) return `'Anonymous' is kept for anonymous gifts: choose another ${label.toLowerCase()}.`;
  return undefined;
}

type Check = (value: string, ctx: z.core.$RefinementCtx<string>) => void;

const asCheck =
  (problem: (label: string, value: string) => string | undefined, label: string): Check =>
  (value, ctx) => {
    const message = problem(label, value);
    if (message) ctx.addIssue({ code: 'custom', message, input: value });
  };

/** The one refinement for usernames and display names, at registration and on profile edit. */
export const nameRules = (label: string): Check => asCheck(nameProblem, label);

/** The refinement for bio and location. */
export const textRules = (label: string): Check => asCheck(hiddenTextProblem, label);
