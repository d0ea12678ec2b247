import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { makePrivateDir, writePrivateFile } from '../files.js';

/** One email to one person. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** A fixed Message-ID (`<…@host>`): the same email sent twice (a resend after a crash) is recognisably one. */
  messageId?: string;
  /** Extra headers, e.g. List-Unsubscribe. */
  headers?: Record<string, string>;
}

/**
 * Outgoing email. With SMTP_URL it goes to that server (nodemailer); without it each email is
 * written to `DATA_DIR/outbox/` as an `.eml` file (owner-only) and its text is printed on the
 * console, so a fresh install with no mail server can still follow a password-reset link.
 */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/** Where the embedded mailer writes its emails. */
export const outboxDir = (config: Pick<Config, 'dataDir'>) => path.join(config.dataDir, 'outbox');

export function createMailer(config: Config, log: Logger): Mailer {
  return config.smtpUrl ? smtpMailer(config.smtpUrl, config.mailFrom) : outboxMailer(config, log);
}

function smtpMailer(url: string, from: string): Mailer {
  const transport = nodemailer.createTransport(url);
  return {
    async send(message) {
      await transport.sendMail({ from, ...message });
    },
    close: () => transport.close(),
  };
}

function outboxMailer(config: Config, log: Logger): Mailer {
  // nodemailer builds the message (headers, encodings, multipart) without sending it anywhere.
  const build = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const dir = outboxDir(config);
  return {
    async send(message) {
      const info = await build.sendMail({ from: config.mailFrom, ...message });
      makePrivateDir(dir, { always: true });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const file = path.join(dir, `${stamp}-${crypto.randomBytes(4).toString('hex')}.eml`);
      if (!Buffer.isBuffer(info.message)) throw new Error('the outbox expected a built message');
      // Written whole, then moved in: a reader of the outbox never sees half an email.
      const partial = path.join(config.dataDir, `.${path.basename(file)}.partial`);
      await writePrivateFile(partial, info.message);
      await fs.promises.rename(partial, file);
      log.info({ to: message.to, subject: message.subject, file }, 'email written to the outbox (no SMTP_URL)');
      // The console is the mail server of a fresh install: the text carries the link to follow.
      if (config.env !== 'test') console.log(`\nEmail to ${message.to}: ${message.subject}\n\n${message.text}\n(saved in ${file})\n`);
    },
    close: () => build.close(),
  };
}
