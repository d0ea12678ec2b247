/**
 * Analytics (PRODUCT.md §3, §5 and §7), written once for the API and the renderer: the four event
 * types, their payload rules with the spec's messages, the record each one emits, and the link
 * visitor facts (where a visitor came from, which kind of device). Plain TypeScript, no zod, so
 * the renderer validates with this very code before sending and the API refuses what it refuses.
 */

export const ANALYTICS_EVENT_TYPES = ['linkTransaction', 'wishlistTransaction', 'linkShare', 'bankTransaction'] as const;
export type AnalyticsEventType = (typeof ANALYTICS_EVENT_TYPES)[number];

/** The largest `event_details`, as JSON (bytes of UTF-8). */
export const ANALYTICS_DETAILS_MAX_BYTES = 4096;
/** The longest `page_url` kept. */
export const ANALYTICS_PAGE_URL_MAX_LENGTH = 2048;
/** The longest user agent kept. */
export const ANALYTICS_USER_AGENT_MAX_LENGTH = 255;

// ---- PRODUCT.md §5's event payload rules, as written -----------------------------------------------

export const EVENT_RULES = {
  linkId: 'link_id must be a non-empty string',
  linkDetails: 'Link details must be a non-empty object',
  linkType: 'link_type must be a non-empty string',
  linkAmount: 'link_amount must be a number or null/undefined',
  itemName: 'wishlist item name must be a string',
  itemPrice: 'wishlist item price must be a number',
  itemShipping: 'wishlist item shipping must be a number',
  itemId: 'wishlist itemId must be a string',
  nonEmpty: 'Link must be a non-empty object',
  giveOrReceive: 'giveorreceive must be a string or null/undefined',
  bankType: 'bank transaction type must be a string or null/undefined',
  bankAmount: 'bank transaction amount must be a number',
} as const;

/** The envelope's own rules (not the spec's: it leaves them open). */
export const ENVELOPE_RULES = {
  sessionId: 'session_id must be a UUID',
  eventType: `event_type must be one of ${ANALYTICS_EVENT_TYPES.join(', ')}`,
  pageUrl: `page_url must be a string of at most ${ANALYTICS_PAGE_URL_MAX_LENGTH} characters`,
  detailsTooLarge: `event_details must be at most ${ANALYTICS_DETAILS_MAX_BYTES} bytes`,
} as const;

type Payload = Record<string, unknown>;

const isObject = (v: unknown): v is Payload => typeof v === 'object' && v !== null && !Array.isArray(v);
const isNonEmptyObject = (v: unknown): v is Payload => isObject(v) && Object.keys(v).length > 0;
const isNonEmptyString = (v: unknown): v is string => typeof v === 'string' && v.trim().length > 0;
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isAbsent = (v: unknown) => v === undefined || v === null;

const rules: Record<AnalyticsEventType, (p: unknown) => string | null> = {
  linkTransaction: (p) => {
    const payload = isObject(p) ? p : {};
    if (!isNonEmptyString(payload._id)) return EVENT_RULES.linkId;
    if (!isNonEmptyObject(payload.details)) return EVENT_RULES.linkDetails;
    if (!isNonEmptyString(payload.details.type)) return EVENT_RULES.linkType;
    if (!isAbsent(payload.details.amount) && !isNumber(payload.details.amount)) return EVENT_RULES.linkAmount;
    return null;
  },
  wishlistTransaction: (p) => {
    const payload = isObject(p) ? p : {};
    if (payload.name !== undefined && typeof payload.name !== 'string') return EVENT_RULES.itemName;
    if (!isNumber(payload.price) || payload.price === 0) return EVENT_RULES.itemPrice;
    if (!isNumber(payload.shippingPrice)) return EVENT_RULES.itemShipping;
    if (!isNonEmptyString(payload.itemId)) return EVENT_RULES.itemId;
    return null;
  },
  linkShare: (p) => {
    if (!isNonEmptyObject(p)) return EVENT_RULES.nonEmpty;
    if (!isAbsent(p.giveorreceive) && typeof p.giveorreceive !== 'string') return EVENT_RULES.giveOrReceive;
    if (!isNonEmptyString(p.type)) return EVENT_RULES.linkType;
    return null;
  },
  bankTransaction: (p) => {
    if (!isNonEmptyObject(p)) return EVENT_RULES.nonEmpty;
    if (!isAbsent(p.type) && typeof p.type !== 'string') return EVENT_RULES.bankType;
    if (!isNumber(p.amount) || p.amount === 0) return EVENT_RULES.bankAmount;
    return null;
  },
};

/** The first rule of PRODUCT.md §5 that `details` breaks, as its message; null when it keeps them all. */
export function eventDetailsError(eventType: AnalyticsEventType, details: unknown): string | null {
  return rules[eventType](details);
}

/** UTF-8 size of `details` as JSON. */
export function detailsBytes(details: unknown): number {
  return new TextEncoder().encode(JSON.stringify(details) ?? '').length;
}

// ---- the emitted records (PRODUCT.md §3) --------------------------------------------------------

/** What the record takes from outside the payload: the page, and (server side) the request. */
export interface EmitContext {
  userAgent: string | null;
  pageUrl: string | null;
  /** When the record is made: a valid `timestamp` of the payload wins. */
  now: Date;
}

/** The fields each event reads (required and optional); anything else is "extra data". */
const KNOWN: Record<AnalyticsEventType, string[]> = {
  linkTransaction: ['_id', 'details', 'user_agent', 'timestamp'],
  wishlistTransaction: ['name', 'price', 'shippingPrice', 'itemId', 'user_agent', 'timestamp'],
  linkShare: ['giveorreceive', 'type', 'initialQuantity', 'totalCost', 'title', 'itemId', 'user_agent', 'timestamp'],
  // new_balance is accepted but never kept: a user's balance is not analytics.
  bankTransaction: ['type', 'amount', 'new_balance', 'user_agent', 'timestamp'],
};
/** wishlistTransaction's record carries no extra data (PRODUCT.md §3). */
const TAKES_EXTRA: Record<AnalyticsEventType, boolean> = {
  linkTransaction: true,
  wishlistTransaction: false,
  linkShare: true,
  bankTransaction: true,
};
const MAX_EXTRA_FIELDS = 16;
const MAX_EXTRA_STRING = 200;
/** No extra field may name a person or a session: identity is the record's user_id, from the session. */
const IDENTITY_KEY = /user|session|email|creator|responder|giver|recipient|owner|password|token|balance/i;

/** Extra data: the payload's other plain values (short strings, numbers, booleans), never an identity. */
function extraData(eventType: AnalyticsEventType, payload: Payload, taken: Payload): Payload {
  if (!TAKES_EXTRA[eventType]) return {};
  const extra: Payload = {};
  for (const [key, value] of Object.entries(payload)) {
    if (Object.keys(extra).length >= MAX_EXTRA_FIELDS) break;
    if (KNOWN[eventType].includes(key) || key in taken || IDENTITY_KEY.test(key) || key.length > 64) continue;
    if (typeof value === 'string') extra[key] = value.slice(0, MAX_EXTRA_STRING);
    else if (isNumber(value) || typeof value === 'boolean' || value === null) extra[key] = value;
  }
  return extra;
}

function isoTimestamp(value: unknown, now: Date): string {
  if (typeof value === 'string' || isNumber(value)) {
    const at = new Date(value);
    // A clock a little off is kept; a time far from now is the client's mistake.
    if (!Number.isNaN(at.getTime()) && Math.abs(at.getTime() - now.getTime()) < 24 * 3600_000) return at.toISOString();
  }
  return now.toISOString();
}

const orNull = (v: unknown) => (v === undefined ? null : v);

/**
 * The record PRODUCT.md §3 says each event emits, from a payload that keeps PRODUCT.md §5's rules
 * (`eventDetailsError` is null). This is what the API stores.
 */
export function emittedRecord(eventType: AnalyticsEventType, details: unknown, context: EmitContext): Payload {
  const p = isObject(details) ? details : {};
  const common = {
    user_agent: context.userAgent ? context.userAgent.slice(0, ANALYTICS_USER_AGENT_MAX_LENGTH) : null,
    timestamp: isoTimestamp(p.timestamp, context.now),
    page_url: context.pageUrl ? context.pageUrl.slice(0, ANALYTICS_PAGE_URL_MAX_LENGTH) : null,
  };
  let record: Payload;
  switch (eventType) {
    case 'linkTransaction': {
      const d = isObject(p.details) ? p.details : {};
      record = { link_id: p._id, link_type: d.type, link_amount: isNumber(d.amount) ? d.amount : 0, ...common };
      break;
    }
    case 'wishlistTransaction':
      record = { item_name: orNull(p.name), item_price: p.price, item_shipping: p.shippingPrice, item_id: p.itemId, ...common };
      break;
    case 'linkShare':
      record = {
        initial_quantity: orNull(p.initialQuantity),
        give_receive: orNull(p.giveorreceive),
        link_type: p.type,
        total_cost: orNull(p.totalCost),
        title: orNull(p.title),
        item_id: orNull(p.itemId),
        ...common,
      };
      break;
    case 'bankTransaction':
      record = { type: orNull(p.type), amount: p.amount, ...common };
      break;
  }
  return { ...record, ...extraData(eventType, p, record) };
}

// ---- link visitors ------------------------------------------------------------------------------

/** Where a link visitor came from, as the owner's breakdown groups them. */
export const VISITOR_SOURCES = ['instagram', 'x', 'messages', 'direct', 'other'] as const;
export type VisitorSource = (typeof VISITOR_SOURCES)[number];
export const VISITOR_SOURCE_LABELS: Record<VisitorSource, string> = {
  instagram: 'Instagram',
  x: 'X',
  messages: 'Messages',
  direct: 'Direct',
  other: 'Other',
};

const SOURCE_ALIASES: [RegExp, VisitorSource][] = [
  [/^(instagram|ig)$|(^|\.)instagram\.com$|(^|\.)l\.instagram\.com$/, 'instagram'],
  [/^(x|twitter)$|(^|\.)(x|twitter)\.com$|^t\.co$/, 'x'],
  [/^(messages|sms|imessage|message)$/, 'messages'],
  [/^(direct|none)$/, 'direct'],
];

/**
 * A visitor's source from what the link page knows: the share URL's `utm_source` first, else the
 * referrer's host, else direct. Any other value is 'other'. The API runs the same function over
 * what the page sends, so nothing but these five words is ever stored.
 */
export function visitorSource(raw: string | null | undefined): VisitorSource {
  const value = (raw ?? '').trim().toLowerCase().slice(0, 200);
  if (!value) return 'direct';
  let host = value;
  try {
    if (/^[a-z][a-z0-9+.-]*:\/\//.test(value)) host = new URL(value).hostname;
  } catch {
    // not a URL: the word itself
  }
  host = host.replace(/^www\./, '').replace(/^mobile\./, '');
  for (const [pattern, source] of SOURCE_ALIASES) if (pattern.test(host)) return source;
  return 'other';
}

/** What the link page sends as `source`: `utm_source` of the page URL, else the referrer (not our own site). */
export function linkPageSource(search: string, referrer: string, ownOrigin: string): string {
  const utm = new URLSearchParams(search).get('utm_source');
  if (utm?.trim()) return utm.trim().slice(0, 64);
  if (!referrer) return 'direct';
  try {
    const url = new URL(referrer);
    return url.origin === ownOrigin ? 'direct' : url.hostname.slice(0, 64);
  } catch {
    return 'direct';
  }
}

export type VisitorDevice = 'phone' | 'desktop';

/** Phone or desktop, from a User-Agent (tablets count as phones: touch devices, shared by hand). */
export const visitorDevice = (userAgent: string | null | undefined): VisitorDevice =>
  /Mobi|Android|iPhone|iPad|iPod|Windows Phone|webOS|BlackBerry/i.test(userAgent ?? '') ? 'phone' : 'desktop';

/** A breakdown cell below this many visitors is not shown ('fewer than 5'). */
export const BREAKDOWN_MIN_VISITORS = 5;
export const FEWER_THAN_MIN = `fewer than ${BREAKDOWN_MIN_VISITORS}`;

/** The sources a coarsened breakdown merges into 'social' (where a link is shared by hand). */
export const SOCIAL_SOURCES = ['instagram', 'x', 'messages'] as const satisfies readonly VisitorSource[];
/** A breakdown's rows by source: each source, or merged ('social', 'all' sources). */
export const SOURCE_GROUPS = [...VISITOR_SOURCES, 'social', 'all'] as const;
export type SourceGroup = (typeof SOURCE_GROUPS)[number];
export const SIGNED_IN_GROUPS = ['loggedIn', 'anonymous', 'all'] as const;
export const DEVICE_GROUPS = ['phone', 'desktop', 'all'] as const satisfies readonly (VisitorDevice | 'all')[];

/** How far each part of a breakdown was merged so that no shown number counts fewer than 5 visitors. */
export const DAY_GROUPINGS = ['day', 'week', 'all'] as const;
export const SOURCE_GROUPINGS = ['source', 'kind', 'all'] as const;
export const PAIR_GROUPINGS = ['each', 'all'] as const;

export const BREAKDOWN_GROUP_LABELS = {
  sources: { ...VISITOR_SOURCE_LABELS, social: 'Social', all: 'All sources' },
  signedIn: { loggedIn: 'Logged in', anonymous: 'Anonymous', all: 'All visitors' },
  devices: { phone: 'Phone', desktop: 'Desktop', all: 'All devices' },
} as const;
