import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { SignJWT, jwtVerify } from 'jose';
import type { Config } from '../config.js';

export const SESSION_COOKIE = 'giftlink_session';

export interface TokenClaims {
  userId: string;
  /** The user's token version when the token was made; a password change bumps it. */
  version: number;
  /** When the token stops being valid (ms since the epoch); set by `verify`. */
  expiresAt?: number;
}

/** JWT_SECRET, or a secret generated once into DATA_DIR when it is unset. */
export function resolveSecret(config: Config): string {
  if (config.jwtSecret) return config.jwtSecret;
  const file = path.join(config.dataDir, 'jwt-secret');
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    fs.mkdirSync(config.dataDir, { recursive: true });
    const secret = crypto.randomBytes(48).toString('base64url');
    try {
      fs.writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
      return secret;
    } catch {
      return fs.readFileSync(file, 'utf8').trim(); // another process wrote it first
    }
  }
}

export class Tokens {
  private readonly key: Uint8Array;

  constructor(
    secret: string,
    readonly ttlHours: number,
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  sign(claims: TokenClaims): Promise<string> {
    return new SignJWT({ ver: claims.version })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(claims.userId)
      .setIssuedAt()
      .setExpirationTime(`${this.ttlHours}h`)
      .sign(this.key);
  }

  async verify(token: string): Promise<TokenClaims | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'] });
      if (typeof payload.sub !== 'string' || typeof payload.ver !== 'number') return null;
      return { userId: payload.sub, version: payload.ver, expiresAt: typeof payload.exp === 'number' ? payload.exp * 1000 : undefined };
    } catch {
      return null;
    }
  }
}
