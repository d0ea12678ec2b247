import { EntitySchema } from 'typeorm';
import { centsColumn, dateColumn } from '../db/columns.js';
import type { ShippingCostType } from '../../contract/catalog.js';

/** One product of the embedded catalogue, loaded from resources/catalog/products.json. */
export interface CatalogProduct {
  itemId: string;
  title: string;
  category: string;
  priceCents: number;
  currency: string;
  /** The first shipping option; null when the product has none. */
  shippingType: ShippingCostType | null;
  shippingCents: number;
  condition: string;
  description: string;
  imageUrl: string;
  /** JSON array of image URLs. */
  additionalImages: string;
  /** Lower-cased title, category, keywords and description: what LIKE searches. */
  searchText: string;
  /** Position in products.json: the tie-breaker of the result order. */
  position: number;
}

export const CatalogProductEntity = new EntitySchema<CatalogProduct>({
  name: 'CatalogProduct',
  tableName: 'catalog_products',
  columns: {
    itemId: { type: 'varchar', length: 100, primary: true, name: 'item_id' },
    title: { type: 'varchar', length: 255 },
    category: { type: 'varchar', length: 100, default: '' },
    priceCents: centsColumn({ name: 'price_cents' }),
    currency: { type: 'varchar', length: 3 },
    shippingType: { type: 'varchar', length: 16, nullable: true, name: 'shipping_type' },
    shippingCents: centsColumn({ name: 'shipping_cents' }),
    condition: { type: 'varchar', length: 64, default: '' },
    description: { type: 'text', default: '' },
    imageUrl: { type: 'varchar', length: 255, name: 'image_url' },
    additionalImages: { type: 'text', name: 'additional_images' },
    searchText: { type: 'text', name: 'search_text' },
    position: { type: 'integer', default: 0 },
  },
});

/** Small named values of the catalogue, such as the content hash of the loaded products.json. */
export interface CatalogMeta {
  name: string;
  value: string;
  updatedAt: Date;
}

export const CatalogMetaEntity = new EntitySchema<CatalogMeta>({
  name: 'CatalogMeta',
  tableName: 'catalog_meta',
  columns: {
    name: { type: 'varchar', length: 64, primary: true },
    value: { type: 'varchar', length: 255, default: '' },
    updatedAt: { ...dateColumn(), name: 'updated_at' },
  },
});
