import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUsers, startTestServer, type TestServer, type TestUser } from '../testing/server.js';
import { AddressEntity } from './entity.js';
import { canSeeAddress, canSeeGiver, canSeeShipTo, roleIn } from './policy.js';
import { ADDRESS_COUNTRY_INVALID, ADDRESS_POSTAL_REQUIRED, addressPostalInvalid } from '../../contract/texts.js';
import { type AddressRequest, type SaveAddressResponse } from '../../contract/orders.js';

let server: TestServer;
let ann: TestUser;
beforeAll(async () => {
  server = await startTestServer();
  [ann] = await buildUsers(server, 1, 'addr');
});
afterAll(() => server?.close());

const base = { name: 'Ann Example', line1: '1 Main Street', city: 'Somewhere' };
const put = (body: Partial<AddressRequest> | Record<string, unknown>) =>
  server.request<SaveAddressResponse & { message?: string }>('PUT', '/api/users/me/address', { token: ann.token, body });

describe('shipping address validation, per country', () => {
  // [country, postal code, saved as] — formats from postcode-validator's per-country patterns.
  const good: [string, string | undefined, string | null][] = [
    ['US', '90210', '90210'],
    ['US', '90210-1234', '90210-1234'],
    ['GB', 'SW1A 1AA', 'SW1A 1AA'],
    ['GB', 'sw1a 1aa', 'SW1A 1AA'],
    ['CA', 'K1A 0B1', 'K1A 0B1'],
    ['DE', '10115', '10115'],
    ['FR', '75001', '75001'],
    ['NL', '1012 AB', '1012 AB'],
    ['JP', '100-0001', '100-0001'],
    ['BR', '01310-100', '01310-100'],
    ['IN', '110001', '110001'],
    ['AU', '2000', '2000'],
    ['ie', 'D02 X285', 'D02 X285'],
    // No postal codes there: none needed.
    ['HK', undefined, null],
    ['AE', '', null],
  ];
  it.each(good)('accepts %s %s', async (country, postalCode, saved) => {
    const res = await put({ ...base, country, postalCode });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.address).toMatchObject({ country: country.toUpperCase(), postalCode: saved });
  });

  const bad: [string, Record<string, unknown>, string][] = [
    ['a US ZIP of four digits', { country: 'US', postalCode: '9021' }, addressPostalInvalid('United States')],
    ['a US ZIP with letters', { country: 'US', postalCode: 'ABCDE' }, addressPostalInvalid('United States')],
    ['a British code of digits', { country: 'GB', postalCode: '12345' }, addressPostalInvalid('United Kingdom')],
    ['a Canadian code of digits', { country: 'CA', postalCode: '12345' }, addressPostalInvalid('Canada')],
    ['a German code of four digits', { country: 'DE', postalCode: '1011' }, addressPostalInvalid('Germany')],
    ['a Dutch code without letters', { country: 'NL', postalCode: '1012' }, addressPostalInvalid('Netherlands')],
    ['a Japanese code of five digits', { country: 'JP', postalCode: '10000' }, addressPostalInvalid('Japan')],
    ['no postal code where one is used', { country: 'US' }, ADDRESS_POSTAL_REQUIRED],
    ['an unknown country', { country: 'XX', postalCode: '12345' }, ADDRESS_COUNTRY_INVALID],
    ['a withdrawn country code', { country: 'YU', postalCode: '11000' }, ADDRESS_COUNTRY_INVALID],
    ['a three-letter country', { country: 'USA', postalCode: '90210' }, ADDRESS_COUNTRY_INVALID],
    ['no country', { postalCode: '90210' }, ADDRESS_COUNTRY_INVALID],
    ['no name', { country: 'US', postalCode: '90210', name: '  ' }, 'Please enter the name to ship to.'],
    ['no street', { country: 'US', postalCode: '90210', line1: undefined }, 'Please enter a street address.'],
    ['no city', { country: 'US', postalCode: '90210', city: '' }, 'Please enter a city.'],
    ['a line too long', { country: 'US', postalCode: '90210', line1: 'x'.repeat(101) }, 'That is too long for an address field.'],
    ['a control character', { country: 'US', postalCode: '90210', name: 'Ann\u0007' }, 'Please enter the name to ship to.'],
  ];
  it.each(bad)('refuses %s with a 400 that says why, and keeps nothing', async (_case, fields, message) => {
    const before = await server.deps.db.manager.findOneBy(AddressEntity, { userId: ann.user._id });
    const res = await put({ ...base, ...fields });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
    expect(await server.deps.db.manager.findOneBy(AddressEntity, { userId: ann.user._id })).toEqual(before);
  });
});

describe('order policy', () => {
  const order = { recipientId: 'r', giverId: 'g' };
  it.each([
    ['r', 'recipient', true, true, false],
    ['g', 'giver', false, false, true],
    ['x', null, false, false, false],
  ] as const)('viewer %s: role %s, address %s, ship-to %s, giver %s', (viewer, role, address, shipTo, giver) => {
    expect(roleIn({ id: viewer }, order)).toBe(role);
    expect(canSeeAddress({ id: viewer }, 'r')).toBe(address);
    expect(canSeeShipTo({ id: viewer }, order)).toBe(shipTo);
    expect(canSeeGiver({ id: viewer }, order)).toBe(giver);
  });
});
