import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../api/src/config.js';
import { freePort } from '../api/src/testing/commands.js';
import { startTestServer, type TestServer } from '../api/src/testing/server.js';
import { Nginx, type ReferencePlaces } from './cluster/nginx.js';

// The reference deployment's nginx (deploy/nginx/), run for real in front of a test server.
let server: TestServer;
let nginx: Nginx;
let dir: string;
let places: ReferencePlaces;
beforeAll(async () => {
  Nginx.ensureInstalled();
  server = await startTestServer();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'giftlink-nginx-'));
  // nginx's workers run as nobody when we are root: they must reach its temp paths inside.
  fs.chmodSync(dir, 0o755);
  const [cert, key] = [path.join(dir, 'cert.pem'), path.join(dir, 'key.pem')];
  execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=giftlink.example.com'].concat([
      '-keyout',
      key,
      '-out',
      cert,
    ]),
    { stdio: 'pipe' },
  );
  const apiPort = Number(new URL(server.url).port);
  places = { httpsPort: Number(await freePort()), apiPorts: [apiPort, apiPort, apiPort], cert, key };
  nginx = new Nginx(path.join(dir, 'nginx'), Number(await freePort()));
  await nginx.startReference(places);
}, 180_000); // a first run may install nginx
afterAll(async () => {
  await nginx?.stop();
  await server?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** A request to nginx's TLS port, as a client on the internet would send it (the certificate is the test's own). */
const send = (method: string, p: string, body?: Buffer, headers: Record<string, string> = {}) =>
  new Promise<Answer>((resolve, reject) => {
    const req = https.request(
      {
        host: '127.0.0.1',
        port: places.httpsPort,
        method,
        path: p,
        servername: 'giftlink.example.com',
        rejectUnauthorized: false,
        headers,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      },
    );
    // nginx may answer 413 and close before the whole body is sent.
    req.on('error', reject);
    req.end(body);
  });

/** Whether nginx's TLS port completes a handshake with a client that offers only these. */
const handshake = (options: tls.ConnectionOptions) =>
  new Promise<string | false>((resolve) => {
    const socket = tls.connect({
      host: '127.0.0.1',
      port: places.httpsPort,
      servername: 'giftlink.example.com',
      rejectUnauthorized: false,
      ...options,
    });
    socket.once('secureConnect', () => {
      resolve(socket.getCipher().name);
      socket.end();
    });
    socket.once('error', () => resolve(false));
  });

describe('the reference nginx', () => {
  it('passes nginx -t', () => {
    expect(() => nginx.check()).not.toThrow();
  });

  it("gives strangers only the health check's status: no database id, though nginx reaches the API from this machine", async () => {
    const res = await send('GET', '/healthz');
    expect([res.status, JSON.parse(res.text)]).toEqual([200, { status: 'ok' }]);
  });

  it('names no nginx version, in its headers or on its own error pages', async () => {
    const res = await send('GET', '/healthz');
    expect(res.headers.server).toBe('nginx');
    const redirect = await fetch(`${nginx.url}/healthz`, { redirect: 'manual' });
    expect([redirect.status, redirect.headers.get('server')]).toEqual([301, 'nginx']);
    const refused = await send('POST', '/api/upload', Buffer.alloc(7 * 1024 * 1024));
    expect(refused.status).toBe(413);
    expect(refused.text).not.toMatch(/nginx\/\d/);
  });

  it('takes a picture of UPLOAD_MAX_BYTES with its form, and refuses a body past that before the API reads it', async () => {
    const { uploadMaxBytes } = loadConfig({});
    const form = (size: number) => Buffer.alloc(size + 4 * 1024);
    const headers = { 'content-type': 'multipart/form-data; boundary=x' };
    // The API answers (its JSON: not signed in), so nginx let the whole body through.
    const taken = await send('POST', '/api/upload', form(uploadMaxBytes), headers);
    expect(taken.status).toBe(401);
    expect(taken.headers['content-type']).toMatch(/application\/json/);
    // A body past a picture's room is nginx's own 413, never buffered for the API.
    const refused = await send('POST', '/api/upload', form(uploadMaxBytes + 1024 * 1024), headers);
    expect(refused.status).toBe(413);
    expect(refused.headers['content-type']).toMatch(/text\/html/);
  });

  it("speaks Mozilla's intermediate TLS: 1.2 and 1.3 with forward-secret ciphers, nothing older or weaker", async () => {
    expect(await handshake({ minVersion: 'TLSv1.3' })).toMatch(/^TLS_/);
    expect(await handshake({ maxVersion: 'TLSv1.2', ciphers: 'ECDHE-RSA-AES128-GCM-SHA256' })).toBe('ECDHE-RSA-AES128-GCM-SHA256');
    // Without forward secrecy, or with CBC: the profile's list has neither.
    expect(await handshake({ maxVersion: 'TLSv1.2', ciphers: 'AES128-GCM-SHA256' })).toBe(false);
    expect(await handshake({ maxVersion: 'TLSv1.2', ciphers: 'ECDHE-RSA-AES128-SHA' })).toBe(false);
    expect(await handshake({ maxVersion: 'TLSv1.1', minVersion: 'TLSv1', ciphers: 'DEFAULT@SECLEVEL=0' })).toBe(false);
  });
});
