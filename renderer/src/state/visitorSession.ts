import { randomUuid } from '../ids';

const KEY = 'sessionId';
let memory: string | null = null;
/** How many times the id was forgotten: what was asked for before, under the old id, must not get the new one. */
let forgotten = 0;
export const visitorSessionEpoch = (): number => forgotten;

/**
 * The browser's visitor id (PRODUCT.md: a random UUID generated once per browser, kept as `sessionId`),
 * so link pages count an anonymous visitor once. Falls back to memory when storage is blocked.
 */
export function getVisitorSessionId(): string {
  try {
    let id = localStorage.getItem(KEY);
    if (!id) {
      id = randomUuid();
      localStorage.setItem(KEY, id);
    }
    return id;
  } catch {
    memory ??= randomUuid();
    return memory;
  }
}

/** Logout forgets it (PRODUCT.md §4). */
export function clearVisitorSessionId(): void {
  forgotten++;
  memory = null;
  try {
    localStorage.removeItem(KEY);
  } catch {
    // nothing stored
  }
}
