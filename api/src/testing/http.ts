import http from 'node:http';

/** An answer as sent: status, headers and the body's bytes (fetch would decode them, and send no-cache with a condition). */
export interface RawAnswer {
  status: number;
  headers: { get: (name: string) => string | null };
  body: Buffer;
}

/** A GET of `url` with exactly `headers`, answered as sent. */
export const rawGet = (url: string, headers: Record<string, string> = {}) =>
  new Promise<RawAnswer>((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const header = (name: string) => {
            const value = res.headers[name.toLowerCase()];
            return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
          };
          resolve({ status: res.statusCode ?? 0, headers: { get: header }, body: Buffer.concat(chunks) });
        });
      })
      .on('error', reject);
  });
