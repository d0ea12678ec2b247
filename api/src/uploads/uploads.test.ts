import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, startTestServer, type TestServer, type TestUser } from '../testing/server.js';

let server: TestServer;
let owner: TestUser;
beforeAll(async () => {
  server = await startTestServer({ UPLOAD_MAX_BYTES: String(300 * 1024) });
  owner = await buildUser(server);
});
afterAll(() => server?.close());

const GPS_IFD_POINTER = [Buffer.from([0x88, 0x25]), Buffer.from([0x25, 0x88])];

function form(file: Blob, name: string, pfpOrCover = 'profilePicture') {
  const data = new FormData();
  data.set('pfpOrCover', pfpOrCover);
  data.set('file', file, name);
  return data;
}

const photoWithGps = () =>
  sharp({ create: { width: 1600, height: 1200, channels: 3, background: '#3a7' } })
    .jpeg()
    .withExif({
      IFD0: { Artist: 'SECRET-ARTIST', Make: 'PhoneCo' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 2964/100', GPSLongitudeRef: 'E', GPSLongitude: '2/1 21/1 768/100' },
    })
    .toBuffer();

describe('POST /api/upload', () => {
  it('stores a JPEG fitted in 1000x1000 without its EXIF or GPS and sets the picture', async () => {
    const input = await photoWithGps();
    const exif = (await sharp(input).metadata()).exif!;
    expect(GPS_IFD_POINTER.some((tag) => exif.includes(tag))).toBe(true);

    const res = await server.request('POST', '/api/upload', {
      token: owner.token,
      body: form(new Blob([new Uint8Array(input)], { type: 'image/jpeg' }), 'holiday.jpg'),
    });
    expect(res.status).toBe(200);
    const location: string = res.body.urls[0].location;
    expect(location).toMatch(/^\/uploads\/[0-9a-f-]{36}\.jpg$/);
    expect(res.body.user.profilePicture).toBe(location);

    const served = await fetch(server.url + location);
    expect(served.headers.get('content-type')).toBe('image/jpeg');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    const bytes = Buffer.from(await served.arrayBuffer());
    const meta = await sharp(bytes).metadata();
    expect(meta.format).toBe('jpeg');
    expect([meta.width, meta.height]).toEqual([1000, 750]);
    expect(meta.exif).toBeUndefined();
    expect(bytes.includes(Buffer.from('SECRET-ARTIST'))).toBe(false);

    const me = await server.request('GET', '/api/auth/me', { token: owner.token });
    expect(me.body.profilePicture).toBe(location);
  });

  it('accepts a PNG as the cover photo', async () => {
    const png = await sharp({ create: { width: 300, height: 100, channels: 4, background: '#f0a' } })
      .png()
      .toBuffer();
    const res = await server.request('POST', '/api/upload', {
      token: owner.token,
      body: form(new Blob([new Uint8Array(png)], { type: 'image/png' }), 'cover.png', 'coverPhoto'),
    });
    expect(res.status).toBe(200);
    expect(res.body.user.coverPicture).toBe(res.body.urls[0].location);
  });

  it('rejects a text file named .png and changes nothing', async () => {
    const before = (await server.request('GET', '/api/auth/me', { token: owner.token })).body;
    const res = await server.request('POST', '/api/upload', {
      token: owner.token,
      body: form(new Blob(['<script>alert(1)</script>'], { type: 'image/png' }), 'evil.png'),
    });
    expect(res.status).toBe(415);
    expect(res.body.message).toBe('Only PNG and JPEG images can be uploaded.');
    const after = (await server.request('GET', '/api/auth/me', { token: owner.token })).body;
    expect(after.profilePicture).toBe(before.profilePicture);
  });

  it("refuses a GIF with a 415 saying only PNG and JPEG, not 'try a smaller file'", async () => {
    const gif = await sharp({ create: { width: 20, height: 20, channels: 3, background: '#0a0' } })
      .gif()
      .toBuffer();
    const res = await server.request('POST', '/api/upload', {
      token: owner.token,
      body: form(new Blob([new Uint8Array(gif)], { type: 'image/gif' }), 'cat.gif'),
    });
    expect(res.status).toBe(415);
    expect(res.body.message).toBe('Only PNG and JPEG images can be uploaded.');
  });

  it('rejects a file over the size limit', async () => {
    const big = await sharp({
      create: { width: 2000, height: 2000, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 128, sigma: 60 } },
    })
      .png()
      .toBuffer();
    expect(big.length).toBeGreaterThan(300 * 1024);
    const res = await server.request('POST', '/api/upload', {
      token: owner.token,
      body: form(new Blob([new Uint8Array(big)], { type: 'image/png' }), 'big.png'),
    });
    expect(res.status).toBe(413);
    expect(res.body.error).toBe('too_large');
  });

  it('needs a session, a file and a known slot', async () => {
    const png = await sharp({ create: { width: 10, height: 10, channels: 3, background: '#000' } })
      .png()
      .toBuffer();
    const blob = new Blob([new Uint8Array(png)], { type: 'image/png' });
    expect((await server.request('POST', '/api/upload', { body: form(blob, 'a.png') })).status).toBe(401);
    expect((await server.request('POST', '/api/upload', { token: owner.token, body: form(blob, 'a.png', 'banner') })).status).toBe(400);
    const noFile = new FormData();
    noFile.set('pfpOrCover', 'profilePicture');
    expect((await server.request('POST', '/api/upload', { token: owner.token, body: noFile })).status).toBe(400);
  });

  it('answers a malformed multipart body with a 400 and the spec text, never a 500', async () => {
    const boundary = 'XyZ123';
    const part = (headers: string, content: string) => `--${boundary}\r\n${headers}\r\n\r\n${content}\r\n`;
    const bodies: [string, string][] = [
      // cut short: no closing boundary
      [
        `multipart/form-data; boundary=${boundary}`,
        part('Content-Disposition: form-data; name="pfpOrCover"', 'profilePicture') +
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\n\x89PNG`,
      ],
      // no boundary parameter at all
      ['multipart/form-data', 'whatever'],
      // a part header that is not a header
      [`multipart/form-data; boundary=${boundary}`, part('Content-Disposition form-data', 'xx') + `--${boundary}--\r\n`],
      // cut short inside a part's headers
      [`multipart/form-data; boundary=${boundary}`, `--${boundary}\r\nContent-Disp`],
      // more parts than allowed
      [
        `multipart/form-data; boundary=${boundary}`,
        Array.from({ length: 12 }, (_, i) => part(`Content-Disposition: form-data; name="f${i}"`, 'v')).join('') + `--${boundary}--\r\n`,
      ],
    ];
    for (const [type, body] of bodies) {
      const res = await server.request('POST', '/api/upload', { token: owner.token, headers: { 'content-type': type }, body });
      expect(res.status, body).toBe(400);
      expect(res.body, body).toEqual({ error: 'bad_upload', message: 'Failed to upload image, try a smaller file.' });
    }
    expect((await server.request('GET', '/api/auth/me', { token: owner.token })).status).toBe(200);
  });

  it('keeps stored pictures owner-only: files 0600 in a 0700 directory, whatever the umask', async () => {
    const before = process.umask(0o000);
    try {
      const dir = path.join(server.deps.config.dataDir, 'uploads');
      fs.rmSync(dir, { recursive: true, force: true });
      const png = await sharp({ create: { width: 20, height: 20, channels: 3, background: '#123' } })
        .png()
        .toBuffer();
      const res = await server.request('POST', '/api/upload', {
        token: owner.token,
        body: form(new Blob([new Uint8Array(png)], { type: 'image/png' }), 'p.png'),
      });
      expect(res.status).toBe(200);
      const file = path.join(dir, res.body.urls[0].location.split('/').pop());
      expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    } finally {
      process.umask(before);
    }
  });

  it('serves only its own file names', async () => {
    expect((await fetch(`${server.url}/uploads/..%2f..%2fetc%2fpasswd`)).status).toBe(404);
    expect((await fetch(`${server.url}/uploads/00000000-0000-0000-0000-000000000000.jpg`)).status).toBe(404);
  });
});

describe('a giant picture', () => {
  let big: TestServer;
  let user: TestUser;
  beforeAll(async () => {
    big = await startTestServer({ UPLOAD_MAX_BYTES: String(5 * 1024 * 1024) });
    user = await buildUser(big);
  });
  afterAll(() => big?.close());

  it("is refused as too large ('try a smaller file'), not as 'not an image'", { timeout: 120_000 }, async () => {
    // 16000x16000 = 256 megapixels in well under a megabyte of PNG.
    const png = await sharp({ create: { width: 16000, height: 16000, channels: 3, background: '#fff' }, limitInputPixels: false })
      .png()
      .toBuffer();
    const res = await big.request('POST', '/api/upload', {
      token: user.token,
      body: form(new Blob([new Uint8Array(png)], { type: 'image/png' }), 'huge.png'),
    });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: 'too_large', message: 'Failed to upload image, try a smaller file.' });
    expect((await big.request('GET', '/api/auth/me', { token: user.token })).body.profilePicture).toBeNull();
  });
});
