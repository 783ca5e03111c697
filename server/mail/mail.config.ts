// Mail's settings (DESIGN.md, Mail): SMTP_URL turns mail on; MAIL_FROM is the sender; DKIM_DOMAIN,
// DKIM_SELECTOR and DKIM_PRIVATE_KEY_FILE, all three or none, sign what is sent;
// EMAIL_VERIFICATION (on by default) asks new and changed addresses to answer a link first.
import { readFileSync } from 'node:fs';

export interface MailConfig {
  /** `smtp://user:pass@host:587` (STARTTLS when offered) or `smtps://user:pass@host:465`. */
  readonly smtpUrl: string;
  /** `Beatnik <news@example.org>` */
  readonly from: string;
  /** No MAIL_FROM: the sender's name is then the site's own, as its admin names it, when sent. */
  readonly fromIsDefault: boolean;
  /** EMAIL_VERIFICATION: until its address answers, an account reads but does not write. */
  readonly verifyAddresses: boolean;
  readonly dkim?: { readonly domainName: string; readonly keySelector: string; readonly privateKey: string };
}

type Env = Record<string, string | undefined>;

/** Thrown for a bad setting; config.ts turns it into its own ConfigError. */
export class MailSettingError extends Error {}

/** Mail's settings, or null when SMTP_URL is not set (mail off, every mail feature hidden). */
export function parseMailConfig(env: Env, publicUrl: string): MailConfig | null {
  const smtpUrl = env.SMTP_URL?.trim();
  if (!smtpUrl) return null;
  let url: URL;
  try {
    url = new URL(smtpUrl);
  } catch {
    throw new MailSettingError('SMTP_URL must be a URL such as smtp://user:pass@mail.example.org:587, got one that does not parse');
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') {
    throw new MailSettingError(`SMTP_URL must start with smtp:// or smtps://, got "${url.protocol}"`);
  }
  const from = env.MAIL_FROM?.trim() || `Beatnik <noreply@${new URL(publicUrl).hostname}>`;
  if (!/<[^<>@\s]+@[^<>@\s]+>$|^[^<>@\s]+@[^<>@\s]+$/.test(from)) {
    throw new MailSettingError(`MAIL_FROM must be an address, or a name and <address>, such as Beatnik <news@example.org>, got "${from}"`);
  }
  const verification = (env.EMAIL_VERIFICATION ?? 'on').trim().toLowerCase();
  if (verification !== 'on' && verification !== 'off') {
    throw new MailSettingError(`EMAIL_VERIFICATION must be on or off, got "${env.EMAIL_VERIFICATION}"`);
  }
  return Object.freeze({ smtpUrl, from, fromIsDefault: !env.MAIL_FROM?.trim(), verifyAddresses: verification === 'on', ...dkimOf(env) });
}

function dkimOf(env: Env): Pick<MailConfig, 'dkim'> {
  const domainName = env.DKIM_DOMAIN?.trim();
  const keySelector = env.DKIM_SELECTOR?.trim();
  const keyFile = env.DKIM_PRIVATE_KEY_FILE?.trim();
  if (!domainName && !keySelector && !keyFile) return {};
  if (!domainName || !keySelector || !keyFile) {
    throw new MailSettingError('DKIM needs all three of DKIM_DOMAIN, DKIM_SELECTOR and DKIM_PRIVATE_KEY_FILE');
  }
  let privateKey: string;
  try {
    privateKey = readFileSync(keyFile, 'utf8');
  } catch {
    throw new MailSettingError(`DKIM_PRIVATE_KEY_FILE ${keyFile} cannot be read`);
  }
  if (!privateKey.includes('PRIVATE KEY-----')) {
    throw new MailSettingError(`DKIM_PRIVATE_KEY_FILE ${keyFile} holds no PEM private key`);
  }
  return { dkim: Object.freeze({ domainName, keySelector, privateKey }) };
}
