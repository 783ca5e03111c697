// The SMTP connection, through nodemailer: one transport per process, a pooled connection reused
// between mails, DKIM-signed when configured. Only the jobs runner and the CLI send. Loaded only
// when mail is on (server.ts): a site without mail never pays for nodemailer's memory.
import { randomUUID } from 'node:crypto';
import nodemailer from 'nodemailer';
import type { MailConfig } from './mail.config.ts';

/** A mail ready to go: both parts, and its extra headers (List-Unsubscribe, Auto-Submitted…). */
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  headers?: Record<string, string>;
}

export interface Mailer {
  /** Sends now; resolves to the SMTP server's answer ("250 2.0.0 Ok: queued as …"). */
  send(mail: OutgoingMail): Promise<string>;
  /** Connects and signs in without sending: rejects with why the server cannot be used. */
  verify(): Promise<void>;
  close(): void;
}

/** `siteName`: the sender's name when MAIL_FROM names none of its own (the site's, as its admin names it). */
export function openMailer(config: MailConfig, publicUrl: string, siteName?: () => Promise<string>): Mailer {
  const host = new URL(publicUrl).hostname;
  const fromAddress = /<([^<>]+)>$/.exec(config.from)?.[1] ?? config.from;
  const transport = nodemailer.createTransport({
    url: config.smtpUrl,
    pool: true,
    maxConnections: 2,
    // A mail server that does not answer is retried later, not waited on for nodemailer's minutes.
    connectionTimeout: 20_000,
    greetingTimeout: 20_000,
    socketTimeout: 60_000,
    ...(config.dkim ? { dkim: config.dkim } : {}),
  }, { from: config.from });
  return {
    async send(mail) {
      const info = await transport.sendMail({
        ...(config.fromIsDefault && siteName ? { from: { name: await siteName(), address: fromAddress } } : {}),
        to: mail.to,
        // The envelope named outright: the mail goes to this one address, whatever a header says.
        envelope: { from: fromAddress, to: [mail.to] },
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        headers: mail.headers,
        // On PUBLIC_URL's host, as replies and bounces expect of a site's own mail.
        messageId: `<${randomUUID()}@${host}>`,
      });
      return info.response;
    },
    async verify() {
      await transport.verify();
    },
    close() {
      transport.close();
    },
  };
}
