import type { Logger } from 'pino';
import { EBAY_IMAGE_ORIGINS } from '../../contract/image-origins.js';
import { z } from 'zod';
import type { EbayConfig } from '../config.js';
import { type Catalog, clampLimit, marketplaceUnavailable } from './catalog.js';
import { centsToDecimal, dollarsToCents } from '../../contract/money.js';
import type { ImageRef, SearchProduct, ShippingOption } from '../../contract/catalog.js';
import { sandboxMarketplace } from '../orders/sandbox.js';

const SCOPE = 'https://api.ebay.com/oauth/api_scope';
const REQUEST_TIMEOUT_MS = 10_000;
/** A token is renewed this long before eBay says it expires. */
const TOKEN_MARGIN_MS = 60_000;
const DESCRIPTION_MAX = 2_000;

/* The parts of eBay's documented JSON that we read. Unknown fields are ignored. */

const TokenResponse = z.object({
  access_token: z.string().min(1),
  expires_in: z.number().positive(),
});

const ConvertedAmount = z.object({ value: z.string().optional(), currency: z.string().optional() });
const Image = z.object({ imageUrl: z.string().optional() });
const ShippingOptionSummary = z.object({
  shippingCostType: z.string().optional(),
  shippingCost: ConvertedAmount.optional(),
});

/** ItemSummary (search) and Item (getItem) share these fields; Item adds the descriptions. */
const EbayItem = z.object({
  itemId: z.string().min(1),
  title: z.string().default(''),
  price: ConvertedAmount.optional(),
  image: Image.optional(),
  thumbnailImages: z.array(Image).optional(),
  additionalImages: z.array(Image).optional(),
  condition: z.string().optional(),
  shippingOptions: z.array(ShippingOptionSummary).optional(),
  shortDescription: z.string().optional(),
  description: z.string().optional(),
  adultOnly: z.boolean().optional(),
});
type EbayItem = z.output<typeof EbayItem>;

const SearchPagedCollection = z.object({ itemSummaries: z.array(z.unknown()).optional() });

const httpsUrl = (url: string | undefined): url is string => !!url && url.startsWith('https://');

/** eBay item descriptions are seller HTML: we keep plain text only. */
export function plainText(html: string): string {
  const text = html
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<br\s*\/?>|<\/(p|div|li|h\d)>/gi, '\n')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/[ \t\r\f\v]+/g, ' ')
    .replace(/ *\n[\s]*/g, '\n')
    .trim();
  return text.length > DESCRIPTION_MAX ? `${text.slice(0, DESCRIPTION_MAX - 1)}…` : text;
}

function amount(a: z.output<typeof ConvertedAmount> | undefined): { value: string; currency: string } | undefined {
  const cents = a?.value === undefined ? undefined : dollarsToCents(a.value);
  if (cents === undefined || !a?.currency || !/^[A-Z]{3}$/.test(a.currency)) return undefined;
  return { value: centsToDecimal(cents), currency: a.currency };
}

/**
 * eBay's item to our product. Undefined when it cannot be offered: no price we can read, or an
 * adult-only listing. Shipping options without a readable cost are left out (the wishlist then
 * says the shipping is missing rather than inventing a price).
 */
export function mapItem(item: EbayItem): SearchProduct | undefined {
  const price = amount(item.price);
  if (!price || item.adultOnly) return undefined;
  const shippingOptions: ShippingOption[] = [];
  for (const option of item.shippingOptions ?? []) {
    const cost = amount(option.shippingCost);
    const type = option.shippingCostType === 'FIXED' || option.shippingCostType === 'CALCULATED' ? option.shippingCostType : undefined;
    if (cost && type) shippingOptions.push({ shippingCostType: type, shippingCost: cost });
  }
  const primary = [item.image?.imageUrl, ...(item.thumbnailImages ?? []).map((i) => i.imageUrl)].find(httpsUrl);
  const additionalImages: ImageRef[] = (item.additionalImages ?? [])
    .map((i) => i.imageUrl)
    .filter(httpsUrl)
    .map((imageUrl) => ({ imageUrl }));
  return {
    itemId: item.itemId,
    title: item.title,
    price,
    shippingOptions,
    image: { imageUrl: primary ?? '' },
    additionalImages,
    condition: item.condition ?? '',
    description: item.shortDescription?.trim() || (item.description ? plainText(item.description) : ''),
  };
}

interface CachedToken {
  value: string;
  expiresAt: number;
}

/**
 * eBay's Browse API over fetch, with an application token from the client-credentials grant,
 * cached until shortly before it expires. Anything eBay does not answer properly becomes a 502
 * with a message for a person; the details go to the log.
 */
export class EbayCatalog implements Catalog {
  readonly kind = 'ebay';
  readonly imageOrigins = [...EBAY_IMAGE_ORIGINS];
  /**
   * eBay's Browse API finds and describes items; it cannot buy them. Buying needs eBay's Order
   * API (guest or member checkout), which is open only to approved eBay partners and wants the
   * buyer's payment through eBay. So item orders stay with the sandbox marketplace: they are
   * recorded, placed once the recipient has an address, and move on the configured schedule.
   */
  readonly orders = {
    ...sandboxMarketplace,
    note: "CATALOG=ebay: eBay's Browse API cannot place orders, so item orders go to the sandbox marketplace.",
  };
  private token?: CachedToken;
  private tokenRequest?: Promise<CachedToken>;

  constructor(
    private readonly config: EbayConfig,
    private readonly log: Logger,
    private readonly timeoutMs = REQUEST_TIMEOUT_MS,
  ) {}

  private async fetchToken(): Promise<CachedToken> {
    const basic = Buffer.from(`${this.config.clientId}:${this.config.clientSecret}`).toString('base64');
    let res: Response;
    try {
      res = await fetch(this.config.oauthUrl, {
        method: 'POST',
        headers: {
          Authorization: `Basic ${basic}`,
          'Content-Type': 'application/x-www-form-urlencoded',
          Accept: 'application/json',
        },
        body: new URLSearchParams({ grant_type: 'client_credentials', scope: SCOPE }).toString(),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (err) {
      this.log.warn({ err }, 'eBay token request failed');
      throw marketplaceUnavailable();
    }
    const body: unknown = await res.json().catch(() => undefined);
    const parsed = TokenResponse.safeParse(body);
    if (!res.ok || !parsed.success) {
      // 401 here means EBAY_CLIENT_ID / EBAY_CLIENT_SECRET are wrong.
      this.log.error({ status: res.status, error: (body as { error?: unknown } | undefined)?.error }, 'eBay refused the application token');
      throw marketplaceUnavailable();
    }
    return { value: parsed.data.access_token, expiresAt: Date.now() + parsed.data.expires_in * 1000 - TOKEN_MARGIN_MS };
  }

  /** The cached token, or a new one; concurrent callers share one token request. */
  private async accessToken(): Promise<string> {
    if (this.token && this.token.expiresAt > Date.now()) return this.token.value;
    this.tokenRequest ??= this.fetchToken().finally(() => {
      this.tokenRequest = undefined;
    });
    this.token = await this.tokenRequest;
    return this.token.value;
  }

  /** GET on the Browse API; undefined for the statuses in `absent` (an item that is not there). */
  private async get(path: string, absent: number[] = []): Promise<unknown> {
    for (let attempt = 0; ; attempt++) {
      const token = await this.accessToken();
      let res: Response;
      try {
        res = await fetch(`${this.config.apiBase}${path}`, {
          headers: {
            Authorization: `Bearer ${token}`,
            'X-EBAY-C-MARKETPLACE-ID': this.config.marketplaceId,
            Accept: 'application/json',
          },
          signal: AbortSignal.timeout(this.timeoutMs),
        });
      } catch (err) {
        this.log.warn({ err, path }, 'eBay request failed');
        throw marketplaceUnavailable();
      }
      if (res.status === 401 && attempt === 0) {
        // The token was revoked or expired early: get a new one and try once more.
        this.token = undefined;
        await res.body?.cancel();
        continue;
      }
      if (absent.includes(res.status)) {
        await res.body?.cancel();
        return undefined;
      }
      const body: unknown = await res.json().catch(() => undefined);
      if (!res.ok || body === undefined) {
        this.log.warn({ status: res.status, path, errors: (body as { errors?: unknown } | undefined)?.errors }, 'eBay answered an error');
        throw marketplaceUnavailable();
      }
      return body;
    }
  }

  async search(q: string, limit?: number): Promise<SearchProduct[]> {
    const params = new URLSearchParams({ q, limit: String(clampLimit(limit)) });
    const body = await this.get(`/buy/browse/v1/item_summary/search?${params}`);
    const parsed = SearchPagedCollection.safeParse(body);
    if (!parsed.success) {
      this.log.warn({ issue: parsed.error.issues[0] }, 'eBay search answer not understood');
      throw marketplaceUnavailable();
    }
    const products: SearchProduct[] = [];
    for (const summary of parsed.data.itemSummaries ?? []) {
      const item = EbayItem.safeParse(summary);
      const product = item.success ? mapItem(item.data) : undefined;
      if (product && product.image.imageUrl) products.push(product);
    }
    return products;
  }

  async getItem(itemId: string): Promise<SearchProduct | null> {
    const body = await this.get(`/buy/browse/v1/item/${encodeURIComponent(itemId)}`, [400, 404]);
    if (body === undefined) return null;
    const item = EbayItem.safeParse(body);
    if (!item.success) {
      this.log.warn({ issue: item.error.issues[0] }, 'eBay item answer not understood');
      throw marketplaceUnavailable();
    }
    return mapItem(item.data) ?? null;
  }
}
