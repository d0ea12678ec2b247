import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { Database } from '../db/index.js';
import { type Catalog, clampLimit } from './catalog.js';
import { CatalogMetaEntity, CatalogProductEntity, type CatalogProduct } from './entity.js';
import { dollarsToCents } from '../../contract/money.js';
import { presentProduct } from './presenter.js';
import { deleteAllProducts, lockMeta, searchProducts } from './store.js';
import { ITEM_ID, ShippingCostType, type SearchProduct } from '../../contract/catalog.js';
import { CATALOG_IMAGE_PREFIX } from '../../contract/item-images.js';
import { sandboxMarketplace } from '../orders/sandbox.js';

/** File names the image route serves: our own catalogue's JPEGs, nothing else. */
export const CATALOG_IMAGE_NAME = /^[a-z0-9][a-z0-9_-]{0,150}\.jpg$/;

/** Bump when the mapping from products.json to rows changes, so every database reloads. */
const LOADER_VERSION = '1';
const HASH_KEY = 'products_hash';
const MAX_QUERY_WORDS = 10;
const INSERT_CHUNK = 100;

const SourceAmount = z.object({
  value: z.union([z.string(), z.number()]).transform((v, ctx) => {
    const cents = dollarsToCents(v);
    if (cents === undefined) {
      ctx.addIssue({ code: 'custom', message: 'must be an amount with at most two decimals' });
      return z.NEVER;
    }
    return cents;
  }),
  currency: z.string().regex(/^[A-Z]{3}$/, 'must be an ISO currency code'),
});

const SourceImage = z.object({
  imageUrl: z
    .string()
    .max(255)
    .refine(
      (url) =>
        url.startsWith('https://') ||
        (url.startsWith(CATALOG_IMAGE_PREFIX) && CATALOG_IMAGE_NAME.test(url.slice(CATALOG_IMAGE_PREFIX.length))),
      'must be /catalog/images/<name>.jpg or an https URL',
    ),
});

/** One product of resources/catalog/products.json. */
const SourceProduct = z.object({
  itemId: z.string().regex(ITEM_ID, 'is not a valid item id'),
  title: z.string().trim().min(1).max(255),
  category: z.string().max(100).default(''),
  price: SourceAmount,
  shippingOptions: z.array(z.object({ shippingCostType: ShippingCostType, shippingCost: SourceAmount })).default([]),
  condition: z.string().max(64).default(''),
  description: z.string().max(10_000).default(''),
  image: SourceImage,
  additionalImages: z.array(SourceImage).max(20).default([]),
  keywords: z.array(z.string().max(100)).max(50).default([]),
});
type SourceProduct = z.output<typeof SourceProduct>;

/** Lower-case words of letters and digits: what the search text holds and what a query asks. */
export function searchWords(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

function toRow(p: SourceProduct, position: number): CatalogProduct {
  const shipping = p.shippingOptions[0];
  const text = [p.title, p.category, ...p.keywords, p.description].join(' ');
  return {
    itemId: p.itemId,
    title: p.title,
    category: p.category,
    priceCents: p.price.value,
    currency: p.price.currency,
    shippingType: shipping?.shippingCostType ?? null,
    shippingCents: shipping?.shippingCost.value ?? 0,
    condition: p.condition,
    description: p.description,
    imageUrl: p.image.imageUrl,
    additionalImages: JSON.stringify(p.additionalImages.map((i) => i.imageUrl)),
    // Words separated by single spaces with one in front, so `LIKE '% word%'` matches word starts.
    searchText: ` ${searchWords(text).join(' ')} `,
    position,
  };
}

/**
 * The catalogue shipped in resources/catalog, loaded into `catalog_products` and searched there,
 * so it works offline and the same on SQLite and PostgreSQL, on one node or many.
 */
export class EmbeddedCatalog implements Catalog {
  readonly kind = 'embedded';
  readonly imageOrigins: string[] = [];
  /** The embedded catalogue's marketplace is the sandbox: placed orders ship and arrive on a schedule. */
  readonly orders = sandboxMarketplace;

  constructor(
    private readonly db: Database,
    private readonly dir: string,
    private readonly log: Logger,
  ) {}

  get imagesDir(): string {
    return path.join(this.dir, 'images');
  }

  /** Reads products.json: the valid products in file order; invalid ones are logged and left out. */
  private parseFile(raw: Buffer): CatalogProduct[] {
    let data: unknown;
    try {
      data = JSON.parse(raw.toString('utf8'));
    } catch (err) {
      throw new Error(`The catalogue ${path.join(this.dir, 'products.json')} is not valid JSON: ${(err as Error).message}`, {
        cause: err,
      });
    }
    if (!Array.isArray(data)) throw new Error(`The catalogue ${path.join(this.dir, 'products.json')} must hold a JSON array`);
    const rows: CatalogProduct[] = [];
    const seen = new Set<string>();
    for (const [index, item] of data.entries()) {
      const parsed = SourceProduct.safeParse(item);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        this.log.warn({ index, issue: `${issue.path.join('.')} ${issue.message}` }, 'catalogue product skipped');
      } else if (seen.has(parsed.data.itemId)) {
        this.log.warn({ index, itemId: parsed.data.itemId }, 'repeated catalogue product skipped');
      } else {
        seen.add(parsed.data.itemId);
        rows.push(toRow(parsed.data, rows.length));
      }
    }
    return rows;
  }

  /**
   * Loads products.json into the database when its content differs from what was loaded last
   * (a hash kept in catalog_meta). Idempotent; when several processes start together the first
   * one to lock the meta row loads and the others find the new hash and do nothing.
   */
  async load(): Promise<void> {
    const file = path.join(this.dir, 'products.json');
    let raw: Buffer;
    try {
      raw = await fs.promises.readFile(file);
    } catch {
      this.log.warn({ file }, 'no embedded catalogue found: product search will find nothing new');
      return;
    }
    const hash = crypto.createHash('sha256').update(`${LOADER_VERSION}\n`).update(raw).digest('hex');
    const current = await this.db.manager.findOneBy(CatalogMetaEntity, { name: HASH_KEY });
    if (current?.value === hash) return;

    const rows = this.parseFile(raw);
    const loaded = await this.db.transaction(async (em) => {
      // A write first: it takes the row lock (PostgreSQL) or the write lock (SQLite) before we look.
      await lockMeta(em, HASH_KEY);
      const locked = await em.findOneBy(CatalogMetaEntity, { name: HASH_KEY });
      if (locked?.value === hash) return false;
      await deleteAllProducts(em);
      for (let i = 0; i < rows.length; i += INSERT_CHUNK) await em.insert(CatalogProductEntity, rows.slice(i, i + INSERT_CHUNK));
      await em.upsert(CatalogMetaEntity, { name: HASH_KEY, value: hash, updatedAt: new Date() }, ['name']);
      return true;
    });
    if (loaded) {
      const missing = rows
        .flatMap((r) => [r.imageUrl, ...(JSON.parse(r.additionalImages) as string[])])
        .filter((u) => u.startsWith(CATALOG_IMAGE_PREFIX))
        .filter((u) => !fs.existsSync(path.join(this.imagesDir, u.slice(CATALOG_IMAGE_PREFIX.length))));
      if (missing.length) this.log.warn({ missing: missing.slice(0, 5), count: missing.length }, 'catalogue images missing');
      this.log.info({ products: rows.length }, 'embedded catalogue loaded');
    }
  }

  async search(q: string, limit?: number): Promise<SearchProduct[]> {
    const words = [...new Set(searchWords(q))].slice(0, MAX_QUERY_WORDS);
    if (!words.length) return [];
    const rows = await searchProducts(this.db, words, clampLimit(limit));
    return rows.map(presentProduct);
  }

  async getItem(itemId: string): Promise<SearchProduct | null> {
    const row = await this.db.manager.findOneBy(CatalogProductEntity, { itemId });
    return row ? presentProduct(row) : null;
  }
}
