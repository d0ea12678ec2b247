/** The shapes of the catalogue's source data (hand-written components, in categories/). */
import type { Icon } from './icons/index.js';

export interface ProductType {
  noun: string;
  icon: Icon;
  price: [number, number];
  mods: string[]; // words placed between brand and noun
  attrs: string[]; // trailing ", <attr>"
  kw: string[];
  desc: string[]; // templates: {brand} {attr} {noun}
  heavy?: boolean; // candidate for CALCULATED shipping
  usedOk?: boolean; // may be sold Used
  refurbOk?: boolean; // may be sold Refurbished
  fixedPrices?: string[];
  digital?: boolean; // always free shipping
}

export interface FixedItem {
  title: string;
  icon: Icon;
  price: [number, number];
  kw: string[];
  desc: string;
  usedOk?: boolean;
  heavy?: boolean;
}

export interface Category {
  name: string;
  brands: string[];
  types?: ProductType[];
  fixed?: FixedItem[];
}
