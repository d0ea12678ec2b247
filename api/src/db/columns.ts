import type { EntitySchemaColumnOptions, ValueTransformer } from 'typeorm';

/** Integer cents kept in a bigint column; PostgreSQL hands bigints back as strings. */
const centsTransformer: ValueTransformer = {
  to: (v: number | null | undefined) => v,
  from: (v: string | number | null) => (v === null || v === undefined ? v : Number(v)),
};

export const idColumn: EntitySchemaColumnOptions = { type: 'varchar', length: 36, primary: true };
export const refColumn = (nullable = false): EntitySchemaColumnOptions => ({
  type: 'varchar',
  length: 36,
  nullable,
});
export const centsColumn = (options: Partial<EntitySchemaColumnOptions> = {}): EntitySchemaColumnOptions => ({
  type: 'bigint',
  default: 0,
  transformer: centsTransformer,
  ...options,
});
/** `Date` maps to datetime on SQLite and timestamp on PostgreSQL; migrations use the same mapping. */
export const dateColumn = (nullable = false): EntitySchemaColumnOptions => ({ type: Date, nullable });
