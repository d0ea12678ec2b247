import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { SignJWT, jwtVerify } from 'jose';
import type { Config } from '../config.js';
import { PRIVATE_FILE_MODE, makePrivateDir } from '../files.js';

export const SESSION_COOKIE = 'giftlink_session';

/** How many verified tokens a process remembers (`Tokens.verify`). */
const VERIFIED_TOKENS = 10_000;

/** What a token says: whose it is and which server-side session (auth/entity.ts) it belongs to. */
export interface TokenClaims {
  userId: string;
  sessionId: string;
  /** When the token stops being valid: its session's expiry. */
  expiresAt: Date;
}

/** JWT_SECRET, or a secret generated once into DATA_DIR when it is unset. */
export function resolveSecret(config: Config): string {
  if (config.jwtSecret) return config.jwtSecret;
  const file = path.join(config.dataDir, 'jwt-secret');
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    makePrivateDir(config.dataDir);
    const secret = crypto.randomBytes(48).toString('base64url');
    try {
      fs.writeFileSync(file, secret, { mode: PRIVATE_FILE_MODE, flag: 'wx' });
      fs.chmodSync(file, PRIVATE_FILE_MODE);
      return secret;
    } catch {
      return fs.readFileSync(file, 'utf8').trim(); // another process wrote it first
    }
  }
}

/**
 * Signs and checks tokens (HS256 JWTs). A valid signature only says which session a token names:
 * `authenticateToken` (session.ts) decides whether that session is still alive.
 */
export class Tokens {
  private readonly key: Uint8Array;

  constructor(secret: string) {
    this.key = new TextEncoder().encode(secret);
  }

  /** An HMAC-SHA256 of `data` under the server's secret, separate per `purpose` (an unsubscribe link's), base64url. */
  mac(purpose: string, data: string): string {
    return crypto.createHmac('sha256', this.key).update(`${purpose}\n${data}`).digest('base64url');
  }

  sign(claims: TokenClaims): Promise<string> {
    return new SignJWT({ sid: claims.sessionId })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(claims.userId)
      .setIssuedAt()
      .setExpirationTime(Math.floor(claims.expiresAt.getTime() / 1000))
      .sign(this.key);
  }

  /**
   * Tokens whose signature already checked out, with their claims: a token is the same string on
   * every request of its session, and WebCrypto's HMAC runs on the thread pool (tens of
   * milliseconds under load). A hit still needs its expiry ahead; the session itself is read on
   * every request (`authenticateToken`). Oldest first out.
   */
  private readonly verified = new Map<string, TokenClaims>();

  async verify(token: string): Promise<TokenClaims | null> {
    const known = this.verified.get(token);
    if (known) return known.expiresAt.getTime() > Date.now() ? known : null;
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'] });
      if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string' || typeof payload.exp !== 'number') return null;
      const claims = { userId: payload.sub, sessionId: payload.sid, expiresAt: new Date(payload.exp * 1000) };
      if (this.verified.size >= VERIFIED_TOKENS) this.verified.delete(this.verified.keys().next().value!);
      this.verified.set(token, claims);
      return claims;
    } catch {
      return null;
    }
  }
}
