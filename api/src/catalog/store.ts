import type { EntityManager } from 'typeorm';
import type { Database } from '../db/index.js';
import { CatalogProductEntity, type CatalogProduct } from './entity.js';

/**
 * Takes the row lock of catalog_meta's `name` row (PostgreSQL) or the write lock (SQLite) in `em`'s
 * transaction: a write first, before anything is read.
 */
export async function lockMeta(em: EntityManager, name: string): Promise<void> {
  await em.query(`UPDATE catalog_meta SET value = value WHERE name = '${name}'`);
}

/** Removes every product of the embedded catalogue, in `em`'s transaction. */
export async function deleteAllProducts(em: EntityManager): Promise<void> {
  await em.createQueryBuilder().delete().from(CatalogProductEntity).execute();
}

/**
 * Up to `limit` products whose search text holds every one of `words` (letters and digits only,
 * so they never carry LIKE wildcards): those whose title holds more of them first, then the
 * catalogue's own order.
 */
export async function searchProducts(db: Database, words: string[], limit: number): Promise<CatalogProduct[]> {
  const params = Object.fromEntries(words.map((w, i) => [`w${i}`, `% ${w}%`]));
  const qb = db.manager.createQueryBuilder(CatalogProductEntity, 'p');
  for (const key of Object.keys(params)) qb.andWhere(`p.searchText LIKE :${key}`);
  const titleHits = Object.keys(params)
    .map((key) => `CASE WHEN (' ' || LOWER(p.title)) LIKE :${key} THEN 1 ELSE 0 END`)
    .join(' + ');
  return qb.setParameters(params).orderBy(`(${titleHits})`, 'DESC').addOrderBy('p.position', 'ASC').limit(limit).getMany();
}
