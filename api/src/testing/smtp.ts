import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { startTestServer, type TestServer } from './server.js';

export interface Received {
  to: string[];
  raw: string;
}

export interface TestSmtp {
  url: string;
  /** Every message received, in order. */
  inbox: Received[];
  close(): Promise<void>;
}

/**
 * A real SMTP server on a free port that keeps every message it is sent. `onMessage` runs once a
 * message is in; the sender hears it was accepted only after it settles (a crash test kills the sender there).
 */
export async function startSmtp(options: { onMessage?: (message: Received) => Promise<void> | void } = {}): Promise<TestSmtp> {
  const inbox: Received[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const message = { to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') };
        inbox.push(message);
        void Promise.resolve(options.onMessage?.(message)).finally(() => callback());
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
  const { port } = smtp.server.address() as AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, inbox, close: () => new Promise<void>((resolve) => smtp.close(() => resolve())) };
}

/** A header of a raw message (unfolded), or '' when absent. */
export function mailHeader(raw: string, name: string): string {
  const [head] = raw.split(/\r?\n\r?\n/, 1);
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
  return new RegExp(`^${name}: (.*)$`, 'im').exec(unfolded)?.[1].trim() ?? '';
}

/** The whole message with quoted-printable undone: both parts' text (enough for our own ASCII emails). */
export const decodedBody = (raw: string): string =>
  raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

/** A test server whose email goes to a real SMTP server of the test's own; its alert job is run by hand. */
export async function startMailingServer(env: Record<string, string> = {}): Promise<{ smtp: TestSmtp; server: TestServer }> {
  const smtp = await startSmtp();
  const server = await startTestServer({
    SMTP_URL: smtp.url,
    PUBLIC_URL: 'https://giftlink.example',
    COOKIE_SECURE: 'false',
    ALERT_EMAIL_DELAY_MS: '0',
    ...env,
  });
  return { smtp, server };
}
