import { atom } from 'jotai';
import type { User } from '../api/types';

/** The signed-in user, or null for a visitor. */
export const userAtom = atom<User | null>(null);

/** True while the session is being established (app start, login, registration). */
export const isLoadingAtom = atom(true);

/** The last session error shown to the user, or false. */
export const errorAtom = atom<false | string>(false);

/** Balance in dollars. */
export const balanceAtom = atom(0);

/** Becomes true once the start-up `GET /api/auth/me` has answered. */
export const sessionCheckedAtom = atom(false);

export const isLoggedInAtom = atom((get) => get(userAtom) !== null);

// ---- image cache slot: url -> object URL --------------------------------------------------

export const imageCacheAtom = atom<ReadonlyMap<string, string>>(new Map<string, string>());

export const addImageAtom = atom(null, (get, set, entry: { url: string; objectUrl: string }) => {
  const next = new Map(get(imageCacheAtom));
  const previous = next.get(entry.url);
  if (previous && previous !== entry.objectUrl) URL.revokeObjectURL(previous);
  next.set(entry.url, entry.objectUrl);
  set(imageCacheAtom, next);
});

export const removeImageAtom = atom(null, (get, set, url: string) => {
  const current = get(imageCacheAtom);
  const objectUrl = current.get(url);
  if (objectUrl === undefined) return;
  URL.revokeObjectURL(objectUrl);
  const next = new Map(current);
  next.delete(url);
  set(imageCacheAtom, next);
});

export const clearImagesAtom = atom(null, (get, set) => {
  for (const objectUrl of get(imageCacheAtom).values()) URL.revokeObjectURL(objectUrl);
  set(imageCacheAtom, new Map<string, string>());
});

// ---- local database errors ----------------------------------------------------------------

/** The session's database error (SPEC section 3): the last local-storage failure's text, or false. */
export const databaseErrorAtom = atom<false | string>(false);

/** Whether the database error's popup is up; it is shown once per session, then only kept. */
export const databaseErrorNoticeAtom = atom(false);
const databaseErrorShownAtom = atom(false);

export const setDatabaseErrorAtom = atom(null, (get, set, message: string) => {
  set(databaseErrorAtom, message);
  if (get(databaseErrorShownAtom)) return;
  set(databaseErrorShownAtom, true);
  set(databaseErrorNoticeAtom, true);
});

export const dismissDatabaseErrorAtom = atom(null, (_get, set) => {
  set(databaseErrorNoticeAtom, false);
});

// ---- session transitions (SPEC section 4) -------------------------------------------------

export const loginStartAtom = atom(null, (_get, set) => {
  set(isLoadingAtom, true);
  set(errorAtom, false);
});

export const loginSuccessAtom = atom(null, (_get, set, user: User) => {
  set(userAtom, user);
  set(balanceAtom, user.balance ?? 0);
  set(errorAtom, false);
  set(isLoadingAtom, false);
  set(sessionCheckedAtom, true);
});

export const loginFailureAtom = atom(null, (_get, set, message: false | string) => {
  set(userAtom, null);
  set(errorAtom, message);
  set(isLoadingAtom, false);
  set(sessionCheckedAtom, true);
});

export const logoutAtom = atom(null, (_get, set) => {
  set(userAtom, null);
  set(balanceAtom, 0);
  set(errorAtom, false);
  set(isLoadingAtom, false);
  set(sessionCheckedAtom, true);
  set(clearImagesAtom);
  set(databaseErrorAtom, false);
  set(databaseErrorNoticeAtom, false);
  set(databaseErrorShownAtom, false);
});

/** Swap in a fresh copy of the signed-in user (after an edit or an upload). */
export const replaceUserAtom = atom(null, (_get, set, user: User) => {
  set(userAtom, user);
  if (typeof user.balance === 'number') set(balanceAtom, user.balance);
});

export const setBalanceAtom = atom(null, (_get, set, balance: number) => {
  set(balanceAtom, balance);
});
