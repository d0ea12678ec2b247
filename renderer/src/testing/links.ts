import type { LinkDetailsView, LinkView } from '../api/types';

/** A link as the API answers it, for the renderer's unit tests: a $20 currency request unless `details` say otherwise. */
export function linkView(details: Partial<LinkDetailsView> = {}, rest: Partial<Omit<LinkView, 'details'>> = {}): LinkView {
  return {
    _id: 'l1',
    id: 'l1',
    creatorUsername: 'gina',
    creatorUserId: 'u1',
    creatorIsSubscribed: false,
    createdAt: '2026-12-02T10:00:00.000Z',
    expiresAt: '2026-12-02T14:00:00.000Z',
    status: 'active',
    details: {
      type: 'currency',
      giveorreceive: 'receive',
      amount: 20,
      initialQuantity: 1,
      remainingQuantity: 1,
      title: null,
      photo: null,
      itemId: null,
      totalCost: 20,
      ...details,
    },
    ...rest,
  };
}
