import { describe, expect, it } from 'vitest';
import { requirementTexts } from './texts.js';

describe('requirementTexts', () => {
  it("words Stripe's requirement keys by their longest known prefix, each text once", () => {
    expect(
      requirementTexts([
        'external_account',
        'individual.dob.day',
        'individual.dob.month',
        'individual.verification.document',
        'tos_acceptance.date',
        'tos_acceptance.ip',
        'settings.payments.statement_descriptor',
      ]),
    ).toEqual([
      'Your bank account',
      'Your name, date of birth and address',
      'A photo of your ID',
      "Accepting Stripe's terms",
      'Other details Stripe asks for',
    ]);
    expect(requirementTexts([])).toEqual([]);
  });
});
