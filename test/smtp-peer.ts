// A real SMTP server for the tests (the smtp-server package), on 127.0.0.1 and a port of its own:
// what Beatnik sends arrives here over SMTP and is read back by mailparser, headers and both parts.
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer, type SMTPServerAddress } from 'smtp-server';
import type { JobRunnerOptions } from '../server/jobs/jobs.runner.ts';
import { startTestServer, type TestServer } from './helpers.ts';
import { waitFor } from './wait-for.ts';

export interface ReceivedMail {
  /** The envelope's recipients, as the client gave them in RCPT TO. */
  to: string[];
  mail: ParsedMail;
  /** The message as it came, headers and all. */
  raw: string;
}

export interface SmtpPeer {
  /** SMTP_URL for Beatnik: plain SMTP with a user and password, which the peer accepts. */
  url: string;
  port: number;
  received: ReceivedMail[];
  /** The mails that arrived for `to`, from the `from`-th mail on. */
  mailsTo(to: string, from?: number): ReceivedMail[];
  /** Waits until `count` mails have arrived in all, or fails naming what it waited for. */
  waitForMail(count: number, timeout?: number): Promise<ReceivedMail[]>;
  /** Refuses RCPT TO for addresses `refuse` names, with the reply code it gives (550: for good). */
  refuse: (address: string) => number | undefined;
  /** Refuses the message at DATA, after it came, for recipients `refuseMessage` names (554: for good). */
  refuseMessage: (to: string[]) => number | undefined;
  close(): Promise<void>;
}

/** A header as it came, its folded lines joined (mailparser reads List-* headers into objects). */
export function headerOf(mail: ReceivedMail, name: string): string | undefined {
  const head = mail.raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ');
  return new RegExp(`^${name}: (.*)$`, 'im').exec(head)?.[1]?.trim();
}

export async function startSmtpPeer(port = 0): Promise<SmtpPeer> {
  const received: ReceivedMail[] = [];
  const peer: Partial<SmtpPeer> = { received, refuse: () => undefined, refuseMessage: () => undefined };
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    onAuth: (auth, _session, callback) => callback(null, { user: auth.username }),
    onRcptTo: (address: SMTPServerAddress, _session, callback) => {
      const code = peer.refuse!(address.address);
      if (code === undefined) return callback();
      const err = new Error(`mailbox ${address.address} refused`) as Error & { responseCode: number };
      err.responseCode = code;
      callback(err);
    },
    onData: (stream, session, callback) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks);
        const code = peer.refuseMessage!(session.envelope.rcptTo.map((r) => r.address));
        if (code !== undefined) {
          const err = new Error('message refused') as Error & { responseCode: number };
          err.responseCode = code;
          return callback(err);
        }
        simpleParser(raw).then((mail) => {
          received.push({ to: session.envelope.rcptTo.map((r) => r.address), mail, raw: raw.toString('utf8') });
          callback();
        }, callback);
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const bound = (server.server.address() as AddressInfo).port;
  return Object.assign(peer, {
    url: `smtp://beatnik:secret@127.0.0.1:${bound}`,
    port: bound,
    mailsTo: (to: string, from = 0) => received.slice(from).filter((m) => m.to.includes(to)),
    async waitForMail(count: number, timeout = 15_000) {
      await waitFor(() => received.length >= count, { timeout, what: `${count} mail(s) at the SMTP peer (${received.length} so far)` });
      return received;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }) as SmtpPeer;
}

export interface MailSite {
  smtp: SmtpPeer;
  server: TestServer;
  /** The server first: its pooled SMTP connection would hold the peer's close for half a minute. */
  close(): Promise<void>;
}

/** A test server with mail on (PUBLIC_URL https://paper.example.org), sending to a peer of its own. */
export async function startMailSite(env: Record<string, string> = {}, jobs: JobRunnerOptions = { pollMs: 50 }): Promise<MailSite> {
  const smtp = await startSmtpPeer();
  const server = await startTestServer({ env: { SMTP_URL: smtp.url, PUBLIC_URL: 'https://paper.example.org', ...env }, jobs });
  return { smtp, server, async close() { await server.stop(); await smtp.close(); } };
}
