import type { CatalogProduct } from './entity.js';
import { centsToDecimal } from '../../contract/money.js';
import type { ImageRef, SearchProduct } from '../../contract/catalog.js';

function images(json: string): ImageRef[] {
  try {
    const list: unknown = JSON.parse(json);
    return Array.isArray(list) ? list.filter((u): u is string => typeof u === 'string').map((imageUrl) => ({ imageUrl })) : [];
  } catch {
    return [];
  }
}

/** The only place an embedded catalogue row becomes the API's product shape. */
export function presentProduct(p: CatalogProduct): SearchProduct {
  return {
    itemId: p.itemId,
    title: p.title,
    price: { value: centsToDecimal(p.priceCents), currency: p.currency },
    shippingOptions: p.shippingType
      ? [
          {
            shippingCostType: p.shippingType,
            shippingCost: { value: centsToDecimal(p.shippingCents), currency: p.currency },
          },
        ]
      : [],
    image: { imageUrl: p.imageUrl },
    additionalImages: images(p.additionalImages),
    condition: p.condition,
    description: p.description,
  };
}
