import argon2 from 'argon2';

/** argon2id with the library's defaults (64 MiB, 3 passes). */
export const hashPassword = (password: string) => argon2.hash(password, { type: argon2.argon2id });

// Compared against when no account matches, so a wrong email costs as much time as a wrong password.
const decoy = hashPassword('decoy-password-for-timing');

export async function verifyPassword(hash: string | undefined, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash ?? (await decoy), password);
  } catch {
    return false;
  }
}
