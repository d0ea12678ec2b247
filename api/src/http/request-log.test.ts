import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { requestLine, requestLog, requestLogFormat, SLOW_REQUEST_MS, worthALine } from './request-log.js';
import type { AppContext } from './context.js';

/** A minimal Koa-like context: what the middleware reads and writes. */
function fakeContext(method: string, path: string, status: number): AppContext {
  const headers = new Map<string, string>();
  const ctx = {
    method,
    path,
    status,
    state: {},
    get: () => '',
    set: (name: string, value: string) => headers.set(name, value),
  };
  return ctx as unknown as AppContext;
}

function collect() {
  const records: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      records.push(chunk.toString());
      done();
    },
  });
  return { records, log: pino({ level: 'info', base: undefined }, stream) };
}

describe('request logs', () => {
  it('are JSON in production and test, short lines in development', () => {
    expect(requestLogFormat('production')).toBe('json');
    expect(requestLogFormat('test')).toBe('json');
    expect(requestLogFormat('development')).toBe('line');
  });

  it('write one short line in development, only for errors and slow requests', () => {
    expect(requestLine({ method: 'GET', path: '/api/auth/me', status: 401, ms: 3.2 })).toBe('GET /api/auth/me 401 3.2ms');
    expect(worthALine({ status: 200, ms: 12 })).toBe(false);
    expect(worthALine({ status: 304, ms: 1 })).toBe(false);
    expect(worthALine({ status: 404, ms: 1 })).toBe(true);
    expect(worthALine({ status: 500, ms: 1 })).toBe(true);
    expect(worthALine({ status: 200, ms: SLOW_REQUEST_MS })).toBe(true);
  });

  it('log every request as one JSON record in json format, and only errors as lines in line format', async () => {
    const json = collect();
    await requestLog(json.log)(fakeContext('GET', '/assets/a.js', 200), async () => undefined);
    expect(json.records).toHaveLength(1);
    expect(JSON.parse(json.records[0])).toMatchObject({ method: 'GET', path: '/assets/a.js', status: 200, msg: 'request' });

    const line = collect();
    const lines: string[] = [];
    const middleware = requestLog(line.log, { format: 'line', write: (l) => lines.push(l) });
    await middleware(fakeContext('GET', '/assets/a.js', 200), async () => undefined);
    await middleware(fakeContext('GET', '/api/nothing', 404), async () => undefined);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^GET \/api\/nothing 404 \d+(\.\d)?ms$/);
    expect(line.records).toEqual([]);
  });
});
