import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.js';
import { buildUser, startTestServer, type TestServer } from '../testing/server.js';
import { EbayCatalog, plainText } from './ebay.js';
import { SearchResults, type SearchProduct } from '../../contract/catalog.js';

/**
 * A local stand-in for eBay speaking the Browse API's documented shapes: the client-credentials
 * token endpoint, item_summary/search and item/{item_id}. It checks what eBay checks.
 */
const CLIENT_ID = 'Giftlink-test-PRD-1234';
const CLIENT_SECRET = 'PRD-secret-5678';

interface FakeEbay {
  url: string;
  tokenRequests: number;
  searches: URLSearchParams[];
  /** The next Browse calls answer this status instead (500, 401…). */
  failWith?: number;
  /** Tokens eBay still accepts. */
  validTokens: Set<string>;
  close(): Promise<void>;
}

const summaries = [
  {
    itemId: 'v1|110551100598|0',
    title: 'Vintage Brass Desk Lamp',
    leafCategoryIds: ['112581'],
    categories: [{ categoryId: '112581', categoryName: 'Lamps' }],
    image: { imageUrl: 'https://i.ebayimg.com/images/g/abc/s-l225.jpg' },
    additionalImages: [{ imageUrl: 'https://i.ebayimg.com/images/g/def/s-l225.jpg' }, { imageUrl: 'javascript:alert(1)' }],
    price: { value: '39.9', currency: 'USD' },
    itemHref: 'https://api.ebay.com/buy/browse/v1/item/v1%7C110551100598%7C0',
    seller: { username: 'lampseller', feedbackPercentage: '99.8', feedbackScore: 1234 },
    condition: 'Used',
    conditionId: '3000',
    shippingOptions: [{ shippingCostType: 'FIXED', shippingCost: { value: '5.00', currency: 'USD' } }],
    buyingOptions: ['FIXED_PRICE', 'BEST_OFFER'],
    itemWebUrl: 'https://www.ebay.com/itm/110551100598',
    adultOnly: false,
  },
  {
    itemId: 'v1|220000000001|0',
    title: 'Desk Lamp, LED, Calculated Shipping',
    image: { imageUrl: 'https://i.ebayimg.com/images/g/ghi/s-l225.jpg' },
    price: { value: '15.00', currency: 'USD' },
    condition: 'New',
    shippingOptions: [{ shippingCostType: 'CALCULATED' }],
    adultOnly: false,
  },
  {
    itemId: 'v1|330000000001|0',
    title: 'Auction lamp, no buy-it-now price',
    image: { imageUrl: 'https://i.ebayimg.com/x.jpg' },
    currentBidPrice: { value: '1.00', currency: 'USD' },
  },
  {
    itemId: 'v1|440000000001|0',
    title: 'Adult-only lamp',
    image: { imageUrl: 'https://i.ebayimg.com/y.jpg' },
    price: { value: '9.99', currency: 'USD' },
    adultOnly: true,
  },
];

const detail = {
  ...summaries[0],
  shortDescription: '',
  description: '<div><h2>Lovely lamp</h2><p>Solid brass &amp; glass.<br>Works great.</p><script>alert(1)</script></div>',
  estimatedAvailabilities: [{ estimatedAvailabilityStatus: 'IN_STOCK' }],
};

function send(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

const ebayError = (errorId: number, message: string) => ({
  errors: [{ errorId, domain: 'API_BROWSE', category: 'REQUEST', message }],
});

async function startFakeEbay(): Promise<FakeEbay> {
  const state = { tokenRequests: 0, searches: [] as URLSearchParams[], validTokens: new Set<string>() } as FakeEbay;
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      if (req.method === 'POST' && url.pathname === '/identity/v1/oauth2/token') {
        const basic = `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64')}`;
        const form = new URLSearchParams(raw);
        if (req.headers.authorization !== basic)
          return send(res, 401, { error: 'invalid_client', error_description: 'client authentication failed' });
        if (
          !req.headers['content-type']?.startsWith('application/x-www-form-urlencoded') ||
          form.get('grant_type') !== 'client_credentials' ||
          form.get('scope') !== 'https://api.ebay.com/oauth/api_scope'
        )
          return send(res, 400, { error: 'invalid_request', error_description: 'request is missing a required parameter' });
        state.tokenRequests += 1;
        const token = `v^1.1#i^1#token-${state.tokenRequests}`;
        state.validTokens.add(token);
        return send(res, 200, { access_token: token, expires_in: 7200, token_type: 'Application Access Token' });
      }
      if (req.method !== 'GET' || !url.pathname.startsWith('/buy/browse/v1/')) return send(res, 404, ebayError(1002, 'Not found'));
      const bearer = req.headers.authorization?.replace(/^Bearer /, '') ?? '';
      if (!state.validTokens.has(bearer)) return send(res, 401, ebayError(1001, 'Invalid access token'));
      if (req.headers['x-ebay-c-marketplace-id'] !== 'EBAY_US') return send(res, 400, ebayError(12001, 'Invalid marketplace'));
      if (state.failWith)
        return send(res, state.failWith, ebayError(10000, 'There was a problem with an eBay internal system or process.'));
      if (url.pathname === '/buy/browse/v1/item_summary/search') {
        state.searches.push(url.searchParams);
        const q = (url.searchParams.get('q') ?? '').toLowerCase();
        const found = summaries.filter((s) => q.split(/\s+/).every((w) => s.title.toLowerCase().includes(w)));
        return send(res, 200, {
          href: `https://api.ebay.com${req.url}`,
          total: found.length,
          limit: Number(url.searchParams.get('limit')),
          offset: 0,
          ...(found.length ? { itemSummaries: found } : {}),
        });
      }
      const id = decodeURIComponent(url.pathname.slice('/buy/browse/v1/item/'.length));
      if (id === detail.itemId) return send(res, 200, detail);
      return send(res, 404, ebayError(11001, `The specified item Id ${id} was not found.`));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return state;
}

let ebay: FakeEbay;
let server: TestServer;
let token: string;

beforeAll(async () => {
  ebay = await startFakeEbay();
  server = await startTestServer({
    CATALOG: 'ebay',
    EBAY_CLIENT_ID: CLIENT_ID,
    EBAY_CLIENT_SECRET: CLIENT_SECRET,
    EBAY_API_BASE: ebay.url,
  });
  ({ token } = await buildUser(server));
});
afterAll(async () => {
  await server?.close();
  await ebay?.close();
});
beforeEach(() => {
  ebay.failWith = undefined;
});

/** A list of products, or an error answer. */
type Answer = SearchProduct[] & Partial<{ error: string; message: string }>;
const search = (q: string) => server.request<Answer>('GET', `/api/products/search?q=${encodeURIComponent(q)}`, { token });

describe('CATALOG=ebay', () => {
  it('maps Browse search results to the product shape, leaving out what cannot be offered', async () => {
    const res = await search('desk lamp');
    expect(res.status).toBe(200);
    expect(SearchResults.safeParse(res.body).success).toBe(true);
    expect(res.body).toEqual([
      {
        itemId: 'v1|110551100598|0',
        title: 'Vintage Brass Desk Lamp',
        price: { value: '39.90', currency: 'USD' },
        shippingOptions: [{ shippingCostType: 'FIXED', shippingCost: { value: '5.00', currency: 'USD' } }],
        image: { imageUrl: 'https://i.ebayimg.com/images/g/abc/s-l225.jpg' },
        additionalImages: [{ imageUrl: 'https://i.ebayimg.com/images/g/def/s-l225.jpg' }],
        condition: 'Used',
        description: '',
      },
      {
        itemId: 'v1|220000000001|0',
        title: 'Desk Lamp, LED, Calculated Shipping',
        price: { value: '15.00', currency: 'USD' },
        shippingOptions: [], // CALCULATED without a cost: no price is made up
        image: { imageUrl: 'https://i.ebayimg.com/images/g/ghi/s-l225.jpg' },
        additionalImages: [],
        condition: 'New',
        description: '',
      },
    ]);
    expect(ebay.searches.at(-1)?.get('q')).toBe('desk lamp');
    expect(Number(ebay.searches.at(-1)?.get('limit'))).toBeLessThanOrEqual(50);
    expect((await search('lamp')).body.map((p) => p.itemId)).not.toContain('v1|440000000001|0');
    expect((await search('nothing like this')).body).toEqual([]);
  });

  it('fetches one application token and reuses it', async () => {
    expect((await search('brass')).status).toBe(200);
    expect((await search('vintage')).status).toBe(200);
    expect(ebay.tokenRequests).toBe(1); // for these two and every search before them
  });

  it('gets a new token when eBay stops accepting the cached one', async () => {
    ebay.validTokens.clear();
    const res = await search('brass');
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(1);
    expect(ebay.tokenRequests).toBe(2);
  });

  it('answers an item with a plain-text description, and 404 for an unknown one', async () => {
    const res = await server.request('GET', `/api/products/${encodeURIComponent('v1|110551100598|0')}`, { token });
    expect(res.status).toBe(200);
    expect(res.body.description).toBe('Lovely lamp\nSolid brass & glass.\nWorks great.');
    expect(res.body.price).toEqual({ value: '39.90', currency: 'USD' });
    const missing = await server.request('GET', `/api/products/${encodeURIComponent('v1|999|0')}`, { token });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe("There was an error loading this item's information. Please try again later.");
  });

  it('turns an eBay failure into a clear 502', async () => {
    for (const status of [500, 503, 429]) {
      ebay.failWith = status;
      const res = await search('lamp');
      expect(res.status, String(status)).toBe(502);
      expect(res.body).toEqual({
        error: 'marketplace_unavailable',
        message: 'The marketplace is not responding. Please try again later.',
      });
    }
    ebay.failWith = 500;
    const item = await server.request('GET', `/api/products/${encodeURIComponent('v1|110551100598|0')}`, { token });
    expect(item.status).toBe(502);
  });

  it('never sends a refused query to eBay', async () => {
    const before = ebay.searches.length;
    const res = await search('porn lamp');
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Haha noo...');
    expect(ebay.searches.length).toBe(before);
  });

  it("allows eBay's image host in the site's Content-Security-Policy", async () => {
    const res = await server.request('GET', '/healthz');
    expect(res.headers.get('content-security-policy')).toMatch(/img-src [^;]*https:\/\/i\.ebayimg\.com/);
  });
});

describe('EbayCatalog at its HTTP boundary', () => {
  const log = pino({ level: 'silent' });
  const config = (fields: Partial<{ clientSecret: string; apiBase: string }> = {}) => {
    const apiBase = fields.apiBase ?? ebay.url;
    return {
      clientId: CLIENT_ID,
      clientSecret: fields.clientSecret ?? CLIENT_SECRET,
      apiBase,
      oauthUrl: `${apiBase}/identity/v1/oauth2/token`,
      marketplaceId: 'EBAY_US',
    };
  };

  it('shares one token request between concurrent searches', async () => {
    const before = ebay.tokenRequests;
    const catalog = new EbayCatalog(config(), log);
    const results = await Promise.all([catalog.search('lamp'), catalog.search('brass'), catalog.search('desk', 1)]);
    expect(results.map((r) => r.length)).toEqual([2, 1, 2]);
    expect(ebay.tokenRequests - before).toBe(1);
    expect(ebay.searches.at(-1)?.get('limit')).toBe('1');
  });

  it('answers 502 when eBay refuses the credentials or cannot be reached', async () => {
    const refused = new EbayCatalog(config({ clientSecret: 'wrong' }), log);
    await expect(refused.search('lamp')).rejects.toMatchObject({ status: 502, code: 'marketplace_unavailable' });
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const unreachable = new EbayCatalog(config({ apiBase: `http://127.0.0.1:${port}` }), log);
    await expect(unreachable.search('lamp')).rejects.toMatchObject({ status: 502 });
  });

  it('gives up on a marketplace that does not answer in time', async () => {
    const silent = http.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const base = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
      const slow = new EbayCatalog(config({ apiBase: base }), log, 200);
      await expect(slow.getItem('v1|1|0')).rejects.toMatchObject({ status: 502 });
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it('keeps descriptions as short plain text', () => {
    expect(plainText('<p>a&nbsp;b</p><style>p{}</style><b>c</b>')).toBe('a b\nc');
    expect(plainText('x'.repeat(5000))).toHaveLength(2000);
  });
});

describe('configuration', () => {
  it('needs the eBay credentials when CATALOG=ebay, naming the variable', () => {
    expect(() => loadConfig({ CATALOG: 'ebay', EBAY_CLIENT_SECRET: 's' })).toThrow(ConfigError);
    expect(() => loadConfig({ CATALOG: 'ebay', EBAY_CLIENT_SECRET: 's' })).toThrow(/EBAY_CLIENT_ID/);
    expect(() => loadConfig({ CATALOG: 'ebay', EBAY_CLIENT_ID: 'i' })).toThrow(/EBAY_CLIENT_SECRET/);
    expect(() => loadConfig({ CATALOG: 'amazon' })).toThrow(/CATALOG/);
    expect(() => loadConfig({ CATALOG: 'ebay', EBAY_CLIENT_ID: 'i', EBAY_CLIENT_SECRET: 's', EBAY_API_BASE: 'not a url' })).toThrow(
      /EBAY_API_BASE/,
    );
    const ok = loadConfig({
      CATALOG: 'ebay',
      EBAY_CLIENT_ID: 'i',
      EBAY_CLIENT_SECRET: 's',
      EBAY_API_BASE: 'https://api.sandbox.ebay.com/',
    });
    expect(ok.ebay).toEqual({
      clientId: 'i',
      clientSecret: 's',
      apiBase: 'https://api.sandbox.ebay.com',
      oauthUrl: 'https://api.sandbox.ebay.com/identity/v1/oauth2/token',
      marketplaceId: 'EBAY_US',
    });
    expect(loadConfig({}).catalog).toBe('embedded');
  });
});
