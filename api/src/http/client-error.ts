import http from 'node:http';
import type { Duplex } from 'node:stream';
import type { ErrorCode } from '../../contract/errors.js';

/** Node's parser codes for requests it cannot read, and what they are answered with. */
const ANSWERS: Record<string, [status: number, error: ErrorCode, message: string]> = {
  HPE_INVALID_METHOD: [400, 'unknown_method', 'This request method is not supported.'],
  HPE_HEADER_OVERFLOW: [431, 'headers_too_large', 'The request headers are too large.'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'request_timeout', 'The request took too long to arrive.'],
};
const DEFAULT_ANSWER: [number, ErrorCode, string] = [400, 'bad_request', 'The request could not be read.'];

/**
 * Requests Node's HTTP parser refuses before Koa sees them (a method it does not know, such as
 * `FOO`, broken headers) get the API's JSON `{ error, message }` instead of Node's bare text.
 */
export function answerClientErrors(server: http.Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const [status, error, message] = (err.code && ANSWERS[err.code]) || DEFAULT_ANSWER;
    const body = JSON.stringify({ error, message });
    socket.end(
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
  });
}
