/**
 * Product assembly: drafts from each category's fixed items and type × brand combinations, then
 * ids, slugs, shipping and condition. Every choice draws from the shared seeded PRNG, in order.
 */
import { CATEGORIES } from './categories/index.js';
import type { Icon } from './icons/index.js';
import { pick, rand, randInt, retailPrice, shuffle } from './random.js';
import type { Category } from './types.js';

const PER_CATEGORY = 17;
const CALCULATED_SHIPPING_COUNT = 8;

/** One entry of products.json. */
export interface Product {
  itemId: string;
  title: string;
  category: string;
  price: { value: string; currency: 'USD' };
  shippingOptions: {
    shippingCostType: 'FIXED' | 'CALCULATED';
    shippingCost: { value: string; currency: 'USD' };
  }[];
  condition: 'New' | 'Used' | 'Refurbished';
  description: string;
  image: { imageUrl: string };
  additionalImages: { imageUrl: string }[];
  keywords: string[];
}

/** A product with what its images need (not written to products.json). */
export interface Generated {
  product: Product;
  icon: Icon;
  slug: string;
}

interface Draft {
  title: string;
  category: string;
  icon: Icon;
  price: string;
  description: string;
  keywords: string[];
  heavy: boolean;
  usedOk: boolean;
  refurbOk: boolean;
  digital: boolean;
}

function draftsFor(cat: Category): Draft[] {
  const drafts: Draft[] = [];
  const seen = new Set<string>();
  for (const f of cat.fixed ?? []) {
    drafts.push({
      title: f.title,
      category: cat.name,
      icon: f.icon,
      price: f.price[0] === f.price[1] ? f.price[0].toFixed(2) : retailPrice(f.price[0], f.price[1]),
      description: f.desc,
      keywords: [...new Set(f.kw)],
      heavy: !!f.heavy,
      usedOk: !!f.usedOk,
      refurbOk: false,
      digital: cat.name.startsWith('Gift Cards') && !f.heavy,
    });
    seen.add(f.title);
  }
  const types = cat.types ?? [];
  const brands = shuffle(cat.brands);
  let i = 0;
  let guard = 0;
  while (drafts.length < PER_CATEGORY && types.length > 0 && guard++ < 1000) {
    const t = types[i % types.length]!;
    const brand = brands[i % brands.length]!;
    i++;
    const mod = pick(t.mods);
    const attr = pick(t.attrs);
    const title = `${brand} ${mod} ${t.noun}, ${attr}`;
    if (seen.has(title)) continue;
    seen.add(title);
    const desc = pick(t.desc);
    const kw = [
      ...new Set([
        ...shuffle(t.kw).slice(0, 4),
        brand
          .toLowerCase()
          .replace(/[^a-z0-9 ]/g, '')
          .trim(),
      ]),
    ];
    drafts.push({
      title,
      category: cat.name,
      icon: t.icon,
      price: t.fixedPrices ? pick(t.fixedPrices) : retailPrice(t.price[0], t.price[1]),
      description: desc,
      keywords: kw,
      heavy: !!t.heavy,
      usedOk: !!t.usedOk,
      refurbOk: !!t.refurbOk,
      digital: !!t.digital,
    });
  }
  if (drafts.length < PER_CATEGORY) throw new Error(`Not enough products for ${cat.name}`);
  return shuffle(drafts).slice(0, PER_CATEGORY);
}

function fixedShipping(price: number): string {
  if (price >= 99 || rand() < 0.1) return '0.00';
  if (price < 15) return pick(['2.99', '3.49', '3.99']);
  if (price < 40) return pick(['3.99', '4.99', '5.49', '5.99']);
  return pick(['5.99', '6.99', '7.99', '9.99']);
}

function slugify(s: string): string {
  return s
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/["'’]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

export function buildProducts(): Generated[] {
  const drafts = CATEGORIES.flatMap(draftsFor);

  // Pick exactly N heavy items (spread across categories) for CALCULATED shipping.
  const heavyIdx = drafts.map((d, idx) => (d.heavy ? idx : -1)).filter((x) => x >= 0);
  if (heavyIdx.length < CALCULATED_SHIPPING_COUNT) throw new Error(`Only ${heavyIdx.length} heavy items`);
  const calculated = new Set(shuffle(heavyIdx).slice(0, CALCULATED_SHIPPING_COUNT));

  const usedIds = new Set<string>();
  const usedSlugs = new Set<string>();
  return drafts.map((d, idx) => {
    let num: number;
    do num = randInt(100000, 999999);
    while (usedIds.has(String(num)));
    usedIds.add(String(num));
    const itemId = `v1|GL${num}|0`;

    let slug = slugify(d.title);
    if (slug.length > 60) slug = slug.slice(0, 61).replace(/-[^-]*$/, '');
    if (usedSlugs.has(slug)) slug = `${slug}-${num}`;
    usedSlugs.add(slug);

    const priceNum = Number(d.price);
    let shipping: Product['shippingOptions'][number];
    if (calculated.has(idx)) {
      const est = (12 + rand() * 26).toFixed(0) + pick(['.50', '.95', '.00']);
      shipping = { shippingCostType: 'CALCULATED', shippingCost: { value: Number(est).toFixed(2), currency: 'USD' } };
    } else {
      shipping = { shippingCostType: 'FIXED', shippingCost: { value: d.digital ? '0.00' : fixedShipping(priceNum), currency: 'USD' } };
    }

    let condition: Product['condition'] = 'New';
    const roll = rand();
    if (d.usedOk && roll < 0.45) condition = 'Used';
    else if (d.refurbOk && roll < 0.25) condition = 'Refurbished';

    return {
      product: {
        itemId,
        title: d.title,
        category: d.category,
        price: { value: d.price, currency: 'USD' },
        shippingOptions: [shipping],
        condition,
        description: d.description,
        image: { imageUrl: `/catalog/images/${slug}.jpg` },
        additionalImages: [{ imageUrl: `/catalog/images/${slug}-2.jpg` }],
        keywords: d.keywords,
      },
      icon: d.icon,
      slug,
    };
  });
}
