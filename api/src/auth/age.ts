import { AppError, badRequest } from '../errors.js';
import { ADULT_AGE } from '../../contract/auth.js';
import { DATE_OF_BIRTH_INVALID, UNDER_AGE } from '../../contract/account-texts.js';

/** What registration keeps of a date of birth: never the date itself. */
export interface AgeRecord {
  adult: true;
  birthYear: number;
}

/**
 * The age gate: a `YYYY-MM-DD` date of birth (the body schema has checked it is a real date) against
 * today's date in UTC. A date still to come is a 400; under ADULT_AGE a 403, whose text is the same
 * whatever else the body says. Someone born on 29 February comes of age on 1 March in other years.
 */
export function ageGate(dateOfBirth: string, now: Date): AgeRecord {
  const year = Number(dateOfBirth.slice(0, 4));
  const today = now.toISOString().slice(0, 10);
  // Dates written YYYY-MM-DD compare as strings in calendar order.
  if (dateOfBirth > today) throw badRequest(DATE_OF_BIRTH_INVALID, 'validation_failed');
  const comesOfAge = `${year + ADULT_AGE}${dateOfBirth.slice(4)}`;
  if (comesOfAge > today) throw new AppError(403, 'under_age', UNDER_AGE);
  return { adult: true, birthYear: year };
}
