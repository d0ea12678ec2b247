import { postcodeValidator, postcodeValidatorExistsForCountry } from 'postcode-validator';
import { ADDRESS_POSTAL_REQUIRED, addressPostalInvalid } from '../../contract/texts.js';
import { badRequest } from '../errors.js';
import type { AddressInput } from '../../contract/orders.js';

const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });

/** The country's English name ("United States"), or its code when the runtime has no name for it. */
export const countryName = (code: string): string => regionNames.of(code) ?? code;

/**
 * Checks the postal code against the country's format with postcode-validator (a maintained
 * table of per-country patterns). A country the library has a pattern for needs a postal code
 * that matches it; a country without postal codes (Hong Kong, the UAE…) takes none or any.
 * Answers the address with the postal code as saved, or throws a 400 with a text for a person.
 */
export function checkPostalCode<A extends Pick<AddressInput, 'postalCode' | 'country'>>(address: A): A {
  const { postalCode, country } = address;
  if (!postcodeValidatorExistsForCountry(country)) return address;
  if (!postalCode) throw badRequest(ADDRESS_POSTAL_REQUIRED, 'invalid_address');
  if (!postcodeValidator(postalCode, country)) throw badRequest(addressPostalInvalid(countryName(country)), 'invalid_address');
  return address;
}
