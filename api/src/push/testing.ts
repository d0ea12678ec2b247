import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { importJWK, jwtVerify } from 'jose';

/**
 * A push service of the tests' own, on 127.0.0.1 (the server needs PUSH_ALLOW_PRIVATE_ENDPOINTS):
 * each `browser()` is a subscription as a browser makes one (its own P-256 key pair and auth
 * secret). A push is accepted only with a valid VAPID header (RFC 8292) and is decrypted here
 * (aes128gcm, RFC 8291) with that browser's private key, as the browser would.
 */
export interface ReceivedPush {
  browser: string;
  /** The decrypted text (the payload's JSON). */
  text: string;
  ttl: string | undefined;
  urgency: string | undefined;
  /** The VAPID JWT's claims, verified. */
  claims: { aud: string; sub: string; exp: number };
  /** The `k=` of the Authorization header: the server's VAPID public key. */
  key: string;
}

export interface TestBrowser {
  id: string;
  endpoint: string;
  /** PushSubscription.toJSON(): what the page posts to /api/push/subscriptions. */
  subscription: { endpoint: string; keys: { p256dh: string; auth: string } };
  /** What the service answers this browser's next pushes (410: it unsubscribed). */
  answer: number;
}

export interface TestPushService {
  url: string;
  received: ReceivedPush[];
  /** Requests refused (bad VAPID, undecryptable body): any is a failure of the server. */
  refused: string[];
  browser(): TestBrowser;
  close(): Promise<void>;
}

export async function startPushService(): Promise<TestPushService> {
  const browsers = new Map<string, { browser: TestBrowser; ecdh: crypto.ECDH; auth: Buffer }>();
  const received: ReceivedPush[] = [];
  const refused: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void handle(req, Buffer.concat(chunks)).then(
        (status) => res.writeHead(status).end(),
        (err: unknown) => {
          refused.push(String(err));
          res.writeHead(400).end();
        },
      );
    });
  });
  const handle = async (req: http.IncomingMessage, body: Buffer): Promise<number> => {
    const id = /^\/push\/([\w-]+)$/.exec(req.url ?? '')?.[1];
    const entry = id && browsers.get(id);
    if (!entry) return 404;
    if (req.method !== 'POST') throw new Error(`method ${req.method}`);
    if (req.headers['content-encoding'] !== 'aes128gcm') throw new Error(`content-encoding ${req.headers['content-encoding']}`);
    const { claims, key } = await verifyVapid(req.headers.authorization ?? '', url);
    const text = decrypt(body, entry.ecdh, entry.auth).toString('utf8');
    received.push({
      browser: entry.browser.id,
      text,
      ttl: req.headers.ttl as string | undefined,
      urgency: req.headers.urgency as string | undefined,
      claims,
      key,
    });
    return entry.browser.answer;
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    received,
    refused,
    browser() {
      const id = crypto.randomUUID();
      const ecdh = crypto.createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = crypto.randomBytes(16);
      const endpoint = `${url}/push/${id}`;
      const browser: TestBrowser = {
        id,
        endpoint,
        subscription: { endpoint, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') } },
        answer: 201,
      };
      browsers.set(id, { browser, ecdh, auth });
      return browser;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** `vapid t=<ES256 JWT>, k=<public key>`: the JWT verified with k; its audience is this service's origin, it expires within a day. */
async function verifyVapid(header: string, origin: string): Promise<{ claims: ReceivedPush['claims']; key: string }> {
  const m = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+),\s*k=([\w-]+)$/.exec(header);
  if (!m) throw new Error(`authorization ${header}`);
  const [, jwt, key] = m;
  const point = Buffer.from(key, 'base64url');
  if (point.length !== 65 || point[0] !== 4) throw new Error('k is not an uncompressed P-256 point');
  const jwk = { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') };
  const { payload, protectedHeader } = await jwtVerify(jwt, await importJWK(jwk, 'ES256'), { audience: origin, algorithms: ['ES256'] });
  if (protectedHeader.typ !== 'JWT') throw new Error(`typ ${protectedHeader.typ}`);
  const exp = payload.exp ?? 0;
  if (exp > Date.now() / 1000 + 24 * 3600) throw new Error('exp more than a day ahead');
  if (typeof payload.sub !== 'string' || !/^(mailto:|https:\/\/)/.test(payload.sub)) throw new Error(`sub ${payload.sub}`);
  return { claims: { aud: origin, sub: payload.sub, exp }, key };
}

const hkdf = (salt: Buffer, ikm: Buffer, info: Buffer, length: number) => Buffer.from(crypto.hkdfSync('sha256', ikm, salt, info, length));

/** RFC 8291 + RFC 8188: one record, `salt(16) rs(4) idlen(1) keyid(as_public)` then ciphertext and tag. */
function decrypt(body: Buffer, ecdh: crypto.ECDH, auth: Buffer): Buffer {
  const salt = body.subarray(0, 16);
  const rs = body.readUInt32BE(16);
  const idlen = body[20];
  const asPublic = body.subarray(21, 21 + idlen);
  const record = body.subarray(21 + idlen);
  if (record.length > rs) throw new Error('more than one record');
  const uaPublic = ecdh.getPublicKey();
  const secret = ecdh.computeSecret(asPublic);
  const ikm = hkdf(auth, secret, Buffer.concat([Buffer.from('WebPush: info\0'), uaPublic, asPublic]), 32);
  const cek = hkdf(salt, ikm, Buffer.from('Content-Encoding: aes128gcm\0'), 16);
  const nonce = hkdf(salt, ikm, Buffer.from('Content-Encoding: nonce\0'), 12);
  const decipher = crypto.createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  // The last record ends with the delimiter 0x02, then zero padding.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error('no last-record delimiter');
  return padded.subarray(0, end);
}
