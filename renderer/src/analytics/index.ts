import { eventDetailsError, linkPageSource, type AnalyticsEventType } from '../../../api/contract/analytics';
import { call } from '../api/client';
import { getVisitorSessionId, visitorSessionEpoch } from '../state/visitorSession';

export type { AnalyticsEventType };

/** Set by `useAnalytics` from the session: the user the calls name (the API checks it against the session). */
let currentUserId: string | null = null;

export function setAnalyticsUser(userId: string | null): void {
  currentUserId = userId;
}

/** Global Privacy Control in the browser: nothing is sent (the API would store nothing anyway). */
function optedOut(): boolean {
  return (navigator as Navigator & { globalPrivacyControl?: boolean }).globalPrivacyControl === true;
}

/** The page, without its fragment. */
const pageUrl = () => window.location.href.split('#')[0];

/**
 * Makes the call `post` makes (to `path`), once the browser has been idle (onceIdle); a failure is
 * only logged, never shown. The body is made then, not now: its session id comes from localStorage,
 * and a page's first use of storage (and of `globalPrivacyControl`) stops the main thread for a
 * moment, which on a slow phone belongs after the page is on screen, not in the render that puts
 * it there. `post` answers undefined when there is nothing to send. A call made before a logout
 * forgot the visitor's id is dropped: it must not tie the user it names to the new id.
 */
function send(path: string, post: () => Promise<unknown> | undefined): void {
  const epoch = visitorSessionEpoch();
  onceIdle(() => {
    if (optedOut() || visitorSessionEpoch() !== epoch) return;
    void post()?.catch((err: unknown) => console.warn(`analytics: ${path} failed`, err));
  });
}

/** The longest the first calls wait for the browser to be idle. */
const IDLE_WAIT_MS = 1000;
let idled = false;
const waiting: (() => void)[] = [];

/**
 * Runs `call` once the browser has first been idle (at most IDLE_WAIT_MS after the first call; in
 * practice after the page's first frame), then at once: a visitor's first page does not wait on its
 * analytics calls, and on a slow phone they do not share its first round trips with the page's own
 * script and data. Calls that waited run a task each, in order, so that together they do not make
 * one long task. Not firstPaint.ts: in the one Lighthouse run made with calls sent right at the
 * first paint, the link page's Total Blocking Time was 103 ms, against 18–38 ms with this wait
 * (single runs, so only a hint).
 */
function onceIdle(call: () => void): void {
  if (idled && !waiting.length) return call();
  waiting.push(call);
  if (waiting.length > 1) return;
  const next = () => {
    idled = true;
    try {
      waiting[0]();
    } finally {
      waiting.shift();
      if (waiting.length) setTimeout(next, 0);
    }
  };
  if (typeof requestIdleCallback === 'function') requestIdleCallback(next, { timeout: IDLE_WAIT_MS });
  else setTimeout(next, 0);
}

/**
 * Logs an analytics event (PRODUCT.md §3 and §5): checked here by the same rules the API applies,
 * then sent to POST /analytics/log-event. Fire-and-forget: a payload that breaks a rule, or a
 * failed call, is only logged.
 */
export function logEvent(eventType: AnalyticsEventType, details: Record<string, unknown>): void {
  try {
    const broken = eventDetailsError(eventType, details);
    if (broken) {
      console.warn(`analytics: ${eventType} not sent: ${broken}`);
      return;
    }
    const user_id = currentUserId;
    const page_url = pageUrl();
    const timestamp = new Date().toISOString();
    send('/analytics/log-event', () =>
      call('POST /analytics/log-event', {
        body: { session_id: getVisitorSessionId(), user_id, event_type: eventType, event_details: details, page_url, timestamp },
      }),
    );
  } catch (err) {
    console.warn('analytics: logEvent failed', err);
  }
}

const STARTED_KEY = 'analyticsSessionStarted';

/** Whether this browser session (a tab's sessionStorage) has started its analytics session; marks it started. */
function firstInSession(): boolean {
  try {
    if (sessionStorage.getItem(STARTED_KEY)) return false;
    sessionStorage.setItem(STARTED_KEY, '1');
  } catch {
    // storage blocked: start once per page load
  }
  return true;
}

/** POST /analytics/start-session, once per browser session. */
export function startSession(): void {
  const user_id = currentUserId;
  send('/analytics/start-session', () =>
    firstInSession() ? call('POST /analytics/start-session', { body: { session_id: getVisitorSessionId(), user_id } }) : undefined,
  );
}

/** POST /analytics/pageview for the page at `path` (pathname and search) of this site. */
export function logPageview(path: string): void {
  const user_id = currentUserId;
  const page_url = new URL(path, window.location.origin).href;
  send('/analytics/pageview', () => call('POST /analytics/pageview', { body: { session_id: getVisitorSessionId(), user_id, page_url } }));
}

/**
 * What a link page tells the API about where its visitor came from: the share URL's `utm_source`,
 * else the referrer. Nothing under Global Privacy Control.
 */
export function linkVisitSource(): string | undefined {
  if (optedOut()) return undefined;
  return linkPageSource(window.location.search, document.referrer, window.location.origin);
}
