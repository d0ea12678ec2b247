/** The address and order requests and answers are part of the contract shared with the renderer. */
import type { z } from 'zod';
import type { AddressBody } from '../../contract/orders.js';

export * from '../../contract/orders.js';
export type AddressInput = z.output<typeof AddressBody>;
export {
  ADDRESS_NOT_FOUND,
  ADDRESS_POSTAL_REQUIRED,
  ADDRESS_COUNTRY_INVALID,
  addressAsk,
  addressPostalInvalid,
  orderDeliveredToGiver,
  orderMovedToRecipient,
  orderRefunded,
} from '../../contract/texts.js';
export { ORDER_ADDRESS_WAIT_DAYS } from '../../contract/limits.js';
