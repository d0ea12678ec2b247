import { QueryClient } from '@tanstack/react-query';
import { createStore } from 'jotai';
import { beforeEach, describe, expect, it } from 'vitest';
import { sessionKeys, setPushedBalance, setSessionBalance, setSessionUser } from '../api/auth';
import type { User } from '../api/types';
import {
  balanceAtom,
  bindSession,
  databaseErrorAtom,
  databaseErrorNoticeAtom,
  dismissDatabaseErrorAtom,
  isLoadingAtom,
  logoutAtom,
  sessionCheckedAtom,
  setDatabaseErrorAtom,
  userAtom,
} from './session';

const ada: User = {
  _id: 'u1',
  username: 'ada',
  displayName: 'Ada',
  bio: '',
  location: '',
  profilePicture: null,
  coverPicture: null,
  isSubscribed: false,
  email: 'ada@example.com',
  stripeCustomerId: null,
  balance: 10,
  letVisitorsJoin: false,
  showPresence: false,
  giftsPaused: false,
};

let queryClient: QueryClient;
let store: ReturnType<typeof createStore>;
beforeEach(() => {
  queryClient = new QueryClient();
  store = createStore();
});

describe('bindSession: the atoms mirror the session query', () => {
  it('holds no user and is not checked before the session has answered', () => {
    bindSession(queryClient, store);
    expect(store.get(userAtom)).toBeNull();
    expect(store.get(balanceAtom)).toBe(0);
    expect(store.get(sessionCheckedAtom)).toBe(false);
    expect(store.get(isLoadingAtom)).toBe(true);
  });

  it('follows the user, and its balance, as the session changes, until unbound', () => {
    const unbind = bindSession(queryClient, store);
    setSessionUser(queryClient, ada);
    expect(store.get(userAtom)).toEqual(ada);
    expect(store.get(sessionCheckedAtom)).toBe(true);
    expect(store.get(isLoadingAtom)).toBe(false);

    setSessionBalance(queryClient, 12.5);
    expect(store.get(balanceAtom)).toBe(12.5);
    setPushedBalance(queryClient, { balance: 4, available: 1, onHold: 3, nextReleaseAt: '2026-12-03T10:00:00.000Z', owed: 0 });
    expect(store.get(userAtom)).toMatchObject({ username: 'ada', balance: 4, available: 1, onHold: 3 });

    setSessionUser(queryClient, null);
    expect(store.get(userAtom)).toBeNull();
    expect(store.get(sessionCheckedAtom)).toBe(true);

    unbind();
    setSessionUser(queryClient, ada);
    expect(store.get(userAtom)).toBeNull();
  });

  it('gives a visitor no balance when one is pushed or answered', () => {
    bindSession(queryClient, store);
    setSessionUser(queryClient, null);
    setSessionBalance(queryClient, 5);
    setPushedBalance(queryClient, { balance: 5, available: 5, onHold: 0, nextReleaseAt: null, owed: 0 });
    expect(queryClient.getQueryData(sessionKeys.me)).toBeNull();
    expect(store.get(balanceAtom)).toBe(0);
  });
});

describe('the local database error', () => {
  it('pops up once a session, then is only kept; a logout starts afresh', () => {
    store.set(setDatabaseErrorAtom, 'Could not save pictures.');
    expect(store.get(databaseErrorNoticeAtom)).toBe(true);
    store.set(dismissDatabaseErrorAtom);
    store.set(setDatabaseErrorAtom, 'Could not save pictures again.');
    expect(store.get(databaseErrorNoticeAtom)).toBe(false);
    expect(store.get(databaseErrorAtom)).toBe('Could not save pictures again.');

    store.set(logoutAtom);
    expect(store.get(databaseErrorAtom)).toBe(false);
    store.set(setDatabaseErrorAtom, 'Could not save pictures.');
    expect(store.get(databaseErrorNoticeAtom)).toBe(true);
  });
});
