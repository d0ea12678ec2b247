/** Every icon a product may name, by key (the groups follow the categories they illustrate). */
import type { IconDraw } from '../colour.js';
import { BEAUTY_TOYS_SPORTS_ICONS } from './beauty-toys-sports.js';
import { ELECTRONICS_BOOKS_HOME_ICONS } from './electronics-books-home.js';
import { FASHION_MUSIC_GIFTS_STATIONERY_ICONS } from './fashion-music-gifts-stationery.js';

export const ICONS = {
  ...ELECTRONICS_BOOKS_HOME_ICONS,
  ...BEAUTY_TOYS_SPORTS_ICONS,
  ...FASHION_MUSIC_GIFTS_STATIONERY_ICONS,
} satisfies Record<string, IconDraw>;

export type Icon = keyof typeof ICONS;
