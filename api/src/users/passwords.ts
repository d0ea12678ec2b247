import argon2 from 'argon2';
import { PASSWORD_HASH_COSTS, type PasswordHashCost } from '../config.js';

/** argon2id at `cost` (config.passwordHash: argon2's defaults, 64 MiB, 3 passes and 4 lanes, outside tests). */
export const hashPassword = (password: string, cost: PasswordHashCost) => argon2.hash(password, { type: argon2.argon2id, ...cost });

// Compared against when no account matches, so a wrong email costs as much time as a wrong password.
const decoys = new Map<string, Promise<string>>();
function decoy(cost: PasswordHashCost): Promise<string> {
  const key = `${cost.memoryCost}/${cost.timeCost}/${cost.parallelism}`;
  let hash = decoys.get(key);
  if (!hash) decoys.set(key, (hash = hashPassword('decoy-password-for-timing', cost)));
  return hash;
}

/**
 * Checks `password` against `hash`, at the cost the hash was made with (it carries its own
 * parameters), so hashes of any cost keep working. Without a hash, against a decoy made at `cost`.
 */
export async function verifyPassword(
  hash: string | undefined,
  password: string,
  cost: PasswordHashCost = PASSWORD_HASH_COSTS.standard,
): Promise<boolean> {
  try {
    return await argon2.verify(hash ?? (await decoy(cost)), password);
  } catch {
    return false;
  }
}
