import type { EntityManager } from 'typeorm';
import type { Database } from '../db/index.js';
import type { Order } from '../orders/entity.js';
import { AppError } from '../errors.js';
import type { SearchProduct } from '../../contract/catalog.js';

export const SEARCH_DEFAULT_LIMIT = 30;
export const SEARCH_MAX_LIMIT = 50;

/**
 * The marketplace catalogue: eBay's Browse API (CATALOG=ebay) or the embedded catalogue shipped in
 * resources/catalog (the default, offline). Both answer the spec's product shape.
 */
export interface Catalog {
  readonly kind: 'embedded' | 'ebay';
  /**
   * Products whose text holds every word of `q` (case-insensitive), best matches first.
   * `limit` defaults to SEARCH_DEFAULT_LIMIT and is capped at SEARCH_MAX_LIMIT.
   */
  search(q: string, limit?: number): Promise<SearchProduct[]>;
  /** One product by its id, or null when the marketplace has no such item. */
  getItem(itemId: string): Promise<SearchProduct | null>;
  /** Origins the product images come from, for the site's Content-Security-Policy. */
  readonly imageOrigins: string[];
  /**
   * Where item orders go. The embedded catalogue is a sandbox marketplace that ships
   * and delivers on a schedule; eBay's Browse API cannot place orders, so the eBay adapter leaves
   * them to the same sandbox. Absent (a test's fake catalogue): the sandbox too.
   */
  readonly orders?: MarketplaceOrders;
}

/** Called for an order that has just moved on, inside the transaction that moved it. */
export type OrderMoved = (em: EntityManager, order: Order, to: 'shipped' | 'delivered') => Promise<void>;

/** How long the sandbox marketplace takes to ship a placed order and to deliver a shipped one. */
export interface OrderSchedule {
  shipAfterMinutes: number;
  deliverAfterMinutes: number;
}

/**
 * The marketplace's side of item orders. Our `orders` table is the record: an order becomes
 * `placed` when its recipient has an address (orders/service.ts), and the marketplace takes
 * placed orders from there and moves them on (`placed → shipped → delivered`). Every move is a
 * conditional update, so several processes may run `advance` at once and each order moves once.
 */
export interface MarketplaceOrders {
  /** `sandbox`: no real marketplace is asked; orders move on our schedule (test money, test parcels). */
  readonly provider: 'sandbox';
  /** Why orders go where they go, for operators (logged at start-up). */
  readonly note: string;
  /**
   * Moves every order that is due by `now`, calling `moved` for each in the transaction that moved
   * it (the people to tell are told exactly once); answers how many shipped and how many were delivered.
   */
  advance(db: Database, now: Date, schedule: OrderSchedule, moved: OrderMoved): Promise<{ shipped: number; delivered: number }>;
}

/** The marketplace failed or answered something we cannot read: a 502 with a message for a person. */
export const marketplaceUnavailable = () =>
  new AppError(502, 'marketplace_unavailable', 'The marketplace is not responding. Please try again later.');

export const clampLimit = (limit: number | undefined): number =>
  Math.max(1, Math.min(SEARCH_MAX_LIMIT, Math.floor(limit ?? SEARCH_DEFAULT_LIMIT)));
