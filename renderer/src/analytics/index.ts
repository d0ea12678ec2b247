import {
  eventDetailsError,
  linkPageSource,
  type AnalyticsEventType,
  type LogEventRequest,
  type PageviewRequest,
  type StartSessionRequest,
} from '../../../api/contract/analytics';
import { api } from '../api/client';
import { getVisitorSessionId } from '../state/visitorSession';

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

/** Analytics failures are only logged, never shown. */
function send(path: string, body: StartSessionRequest | PageviewRequest | LogEventRequest): void {
  if (optedOut()) return;
  onceIdle(() => void api.post(path, body).catch((err: unknown) => console.warn(`analytics: ${path} failed`, err)));
}

/** The longest the first calls wait for the browser to be idle. */
const IDLE_WAIT_MS = 1000;
let idled = false;
const waiting: (() => void)[] = [];

/**
 * Runs `call` once the browser has first been idle (at most IDLE_WAIT_MS after the first call; in
 * practice after the page's first frame), then at once: a visitor's first page does not wait on its
 * analytics calls, and on a slow phone they do not share its first round trips with the page's own
 * script and data. Not firstPaint.ts: in the one Lighthouse run made with calls sent right at the
 * first paint, the link page's Total Blocking Time was 103 ms, against 18–38 ms with this wait
 * (single runs, so only a hint).
 */
function onceIdle(call: () => void): void {
  if (idled) return call();
  waiting.push(call);
  if (waiting.length > 1) return;
  const go = () => {
    idled = true;
    for (const queued of waiting.splice(0)) queued();
  };
  if (typeof requestIdleCallback === 'function') requestIdleCallback(go, { timeout: IDLE_WAIT_MS });
  else setTimeout(go, 0);
}

/**
 * Logs an analytics event (SPEC sections 3 and 5): checked here by the same rules the API applies,
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
    send('/analytics/log-event', {
      session_id: getVisitorSessionId(),
      user_id: currentUserId,
      event_type: eventType,
      event_details: details,
      page_url: pageUrl(),
      timestamp: new Date().toISOString(),
    });
  } catch (err) {
    console.warn('analytics: logEvent failed', err);
  }
}

const STARTED_KEY = 'analyticsSessionStarted';

/** POST /analytics/start-session, once per browser session (a tab's sessionStorage). */
export function startSession(): void {
  try {
    if (sessionStorage.getItem(STARTED_KEY)) return;
    sessionStorage.setItem(STARTED_KEY, '1');
  } catch {
    // storage blocked: start once per page load
  }
  send('/analytics/start-session', { session_id: getVisitorSessionId(), user_id: currentUserId });
}

/** POST /analytics/pageview for the page at `path` (pathname and search) of this site. */
export function logPageview(path: string): void {
  const page_url = new URL(path, window.location.origin).href;
  send('/analytics/pageview', { session_id: getVisitorSessionId(), user_id: currentUserId, page_url });
}

/**
 * What a link page tells the API about where its visitor came from: the share URL's `utm_source`,
 * else the referrer. Nothing under Global Privacy Control.
 */
export function linkVisitSource(): string | undefined {
  if (optedOut()) return undefined;
  return linkPageSource(window.location.search, document.referrer, window.location.origin);
}
