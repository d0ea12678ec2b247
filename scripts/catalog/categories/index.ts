/** The catalogue's categories, in output order. */
import type { Category } from '../types.js';
import { BEAUTY_TOYS_SPORTS } from './beauty-toys-sports.js';
import { ELECTRONICS_BOOKS_HOME } from './electronics-books-home.js';
import { FASHION_MUSIC } from './fashion-music.js';
import { GIFTS_STATIONERY } from './gifts-stationery.js';

export const CATEGORIES: Category[] = [...ELECTRONICS_BOOKS_HOME, ...BEAUTY_TOYS_SPORTS, ...FASHION_MUSIC, ...GIFTS_STATIONERY];
