import { atom, type createStore } from 'jotai';
import type { QueryClient } from '@tanstack/react-query';
import { sessionKeys } from '../api/auth';
import type { User } from '../api/types';

type Store = ReturnType<typeof createStore>;

/** The session query's answer (`sessionQuery`, api/auth.ts), mirrored by `bindSession` alone. */
const sessionUserAtom = atom<User | null>(null);
const sessionSettledAtom = atom(false);

/** The signed-in user, or null for a visitor: what `GET /api/auth/me` (or login, or an edit) answered. */
export const userAtom = atom((get) => get(sessionUserAtom));

/** Balance in dollars, the session's own: it moves with the socket's `balance` pushes, a re-read or an answer, never by hand. */
export const balanceAtom = atom((get) => get(userAtom)?.balance ?? 0);

/** Becomes true once the start-up `GET /api/auth/me` has answered. */
export const sessionCheckedAtom = atom((get) => get(sessionSettledAtom));

/** True while the session is being established (app start, login, registration). */
export const isLoadingAtom = atom(true);

/** The last session error shown to the user, or false. */
export const errorAtom = atom<false | string>(false);

/**
 * Mirrors the session query into the atoms above, synchronously on every change of its cache
 * entry, so screens read `userAtom`/`balanceAtom` while the query cache stays the one copy.
 * Called once at start-up; returns the unsubscribe.
 */
export function bindSession(queryClient: QueryClient, store: Store): () => void {
  const cache = queryClient.getQueryCache();
  const sync = () => {
    const query = cache.find({ queryKey: sessionKeys.me, exact: true });
    const settled = query !== undefined && query.state.status !== 'pending';
    store.set(sessionUserAtom, (query?.state.data as User | null | undefined) ?? null);
    if (settled && !store.get(sessionSettledAtom)) store.set(isLoadingAtom, false);
    store.set(sessionSettledAtom, settled);
  };
  sync();
  return cache.subscribe((event) => {
    if (event.query.queryKey[0] === sessionKeys.me[0]) sync();
  });
}

// ---- image cache slot: url -> object URL --------------------------------------------------

export const imageCacheAtom = atom<ReadonlyMap<string, string>>(new Map<string, string>());

export const addImageAtom = atom(null, (get, set, entry: { url: string; objectUrl: string }) => {
  const next = new Map(get(imageCacheAtom));
  const previous = next.get(entry.url);
  if (previous && previous !== entry.objectUrl) URL.revokeObjectURL(previous);
  next.set(entry.url, entry.objectUrl);
  set(imageCacheAtom, next);
});

export const clearImagesAtom = atom(null, (get, set) => {
  for (const objectUrl of get(imageCacheAtom).values()) URL.revokeObjectURL(objectUrl);
  set(imageCacheAtom, new Map<string, string>());
});

// ---- local database errors ----------------------------------------------------------------

/** The session's database error (PRODUCT.md §3): the last local-storage failure's text, or false. */
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

// ---- session transitions (PRODUCT.md §4); the user itself is set in the session query ----

export const loginStartAtom = atom(null, (_get, set) => {
  set(isLoadingAtom, true);
  set(errorAtom, false);
});

export const loginSuccessAtom = atom(null, (_get, set) => {
  set(errorAtom, false);
  set(isLoadingAtom, false);
});

export const loginFailureAtom = atom(null, (_get, set, message: false | string) => {
  set(errorAtom, message);
  set(isLoadingAtom, false);
});

export const logoutAtom = atom(null, (_get, set) => {
  set(errorAtom, false);
  set(isLoadingAtom, false);
  set(clearImagesAtom);
  set(databaseErrorAtom, false);
  set(databaseErrorNoticeAtom, false);
  set(databaseErrorShownAtom, false);
});
