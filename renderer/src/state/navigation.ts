import type { Location } from 'react-router-dom';

/** What the login page reads from `location.state` to send the user back. */
export interface FromState {
  from: string;
}

export function fromLocation(location: Pick<Location, 'pathname' | 'search' | 'hash'>): FromState {
  return { from: `${location.pathname}${location.search}${location.hash}` };
}

/** The safe in-app path to return to after login, or '/'. */
export function returnPath(state: unknown): string {
  if (typeof state !== 'object' || state === null || !('from' in state)) return '/';
  const { from } = state as { from: unknown };
  let path: string | null = null;
  if (typeof from === 'string') {
    path = from;
  } else if (typeof from === 'object' && from !== null && 'pathname' in from) {
    const loc = from as { pathname?: unknown; search?: unknown; hash?: unknown };
    if (typeof loc.pathname === 'string') {
      path = `${loc.pathname}${typeof loc.search === 'string' ? loc.search : ''}${typeof loc.hash === 'string' ? loc.hash : ''}`;
    }
  }
  if (!path || !path.startsWith('/') || path.startsWith('//')) return '/';
  if (path === '/login' || path.startsWith('/login?') || path.startsWith('/register')) return '/';
  return path;
}
