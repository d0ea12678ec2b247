import { describe, expect, it } from 'vitest';
import type { SearchProduct, WishlistItemView } from '../api/types';
import { formatPurchaseDate, productDetails, shippingLabel, wishlistItemDetails } from './WishlistItemDialog';

const usd = (value: string) => ({ value, currency: 'USD' });

function product(fields: Partial<SearchProduct> = {}): SearchProduct {
  return {
    itemId: 'v1|1|0',
    title: 'Blue mug',
    price: usd('19.99'),
    shippingOptions: [{ shippingCostType: 'FIXED', shippingCost: usd('5.01') }],
    image: { imageUrl: 'https://i.ebayimg.com/a.jpg' },
    additionalImages: [],
    condition: 'New',
    description: 'A mug.',
    ...fields,
  };
}

describe('productDetails: a search result in the item dialog', () => {
  it('costs its price plus the first shipping cost, to the cent', () => {
    expect(productDetails(product())).toMatchObject({ name: 'Blue mug', price: 19.99, shippingPrice: 5.01, total: 25 });
  });

  it('shows shipping the marketplace calculates as such, and none as free', () => {
    const calculated = product({ shippingOptions: [{ shippingCostType: 'CALCULATED', shippingCost: usd('7.00') }] });
    expect(productDetails(calculated)).toMatchObject({ shippingPrice: 'Calculated', total: 26.99 });
    expect(productDetails(product({ shippingOptions: [] }))).toMatchObject({ shippingPrice: 0, total: 19.99 });
  });

  it('shows the main image first, each image once, none empty', () => {
    const images = product({
      additionalImages: [{ imageUrl: 'https://i.ebayimg.com/b.jpg' }, { imageUrl: '' }, { imageUrl: 'https://i.ebayimg.com/a.jpg' }],
    });
    expect(productDetails(images).images).toEqual(['https://i.ebayimg.com/a.jpg', 'https://i.ebayimg.com/b.jpg']);
    expect(productDetails(product({ image: { imageUrl: '' } })).images).toEqual([]);
  });
});

describe('wishlistItemDetails: a wishlist item in the item dialog', () => {
  const item: WishlistItemView = {
    _id: 'w1',
    itemId: 'v1|1|0',
    name: '',
    title: 'Blue mug',
    price: 19.99,
    shippingPrice: 'Calculated',
    shippingCost: 7,
    total: 26.99,
    condition: 'New',
    description: 'A mug.',
    imageUrl: '/catalog/images/mug.jpg',
    allImages: [],
    purchased: true,
    purchasedAt: '2026-01-05T12:00:00.000Z',
  };

  it('is named by its name, else its title', () => {
    expect(wishlistItemDetails(item).name).toBe('Blue mug');
    expect(wishlistItemDetails({ ...item, name: 'Mum’s mug' }).name).toBe('Mum’s mug');
  });

  it('shows all its images, else its one image, else none', () => {
    expect(wishlistItemDetails(item).images).toEqual(['/catalog/images/mug.jpg']);
    expect(wishlistItemDetails({ ...item, allImages: ['/a.jpg', '/b.jpg'] }).images).toEqual(['/a.jpg', '/b.jpg']);
    expect(wishlistItemDetails({ ...item, imageUrl: '' }).images).toEqual([]);
  });

  it('keeps what a purchase charges and when it was bought', () => {
    expect(wishlistItemDetails(item)).toMatchObject({
      total: 26.99,
      shippingPrice: 'Calculated',
      purchased: true,
      purchasedAt: item.purchasedAt,
    });
  });
});

describe('shippingLabel', () => {
  it('says Free for nothing, Calculated as it is, else the cost', () => {
    expect(shippingLabel(0)).toBe('Free');
    expect(shippingLabel('Calculated')).toBe('Calculated');
    expect(shippingLabel(5.5)).toBe('$5.50');
  });
});

describe('formatPurchaseDate', () => {
  it('is empty without a readable date', () => {
    expect(formatPurchaseDate(undefined)).toBe('');
    expect(formatPurchaseDate('')).toBe('');
    expect(formatPurchaseDate('yesterday-ish')).toBe('');
  });

  it('shows a readable date', () => {
    expect(formatPurchaseDate('2026-01-05T12:00:00.000Z')).toMatch(/2026/);
  });
});
