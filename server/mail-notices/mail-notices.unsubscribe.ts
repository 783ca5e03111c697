// RFC 8058 one-click unsubscribe (DESIGN.md, Mail). Every notification mail and digest carries
// `List-Unsubscribe: <PUBLIC_URL/unsubscribe?token=…>`: the token names the account and the kinds
// of mail this one was, signed with the site's secret (HMAC-SHA256), so it needs no table and no
// sign-in. A POST there turns those kinds off; a GET shows the page with the button.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { MAIL_KINDS, UNSUBSCRIBE_LINK_INVALID, unsubscribedText, type MailKind } from '../../shared/mail-kinds.ts';
import type { AppContext } from '../context.ts';
import { badRequest } from '../errors.ts';
import { updatePreferences, type PreferenceColumns } from './mail-notices.repo.ts';

const LETTERS: Record<MailKind, string> = { comments: 'c', followers: 'f', mentions: 'm', digest: 'd' };

function signature(secret: string, body: string): string {
  return createHmac('sha256', secret).update(`unsubscribe:${body}`).digest('base64url');
}

export function unsubscribeToken(secret: string, userId: number, kinds: readonly MailKind[]): string {
  const body = `${userId}.${MAIL_KINDS.filter((kind) => kinds.includes(kind)).map((kind) => LETTERS[kind]).join('')}`;
  return `${body}.${signature(secret, body)}`;
}

export function unsubscribeUrl(config: AppContext['config'], userId: number, kinds: readonly MailKind[]): string {
  return `${config.publicUrl}/unsubscribe?token=${unsubscribeToken(config.jwtSecret, userId, kinds)}`;
}

/** The headers of a mail one may stop (RFC 8058), and of any automatic mail (Auto-Submitted). */
export function unsubscribeHeaders(url: string): Record<string, string> {
  return { 'List-Unsubscribe': `<${url}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click', 'Auto-Submitted': 'auto-generated' };
}

/** The account and kinds a token names; undefined for one this site did not sign. */
export function readUnsubscribeToken(secret: string, token: string): { userId: number; kinds: MailKind[] } | undefined {
  const match = /^([1-9]\d{0,15})\.([cfmd]{1,4})\.([\w-]{43})$/.exec(token);
  if (!match) return undefined;
  const [, id, letters, sent] = match as unknown as [string, string, string, string];
  const expected = Buffer.from(signature(secret, `${id}.${letters}`));
  if (!timingSafeEqual(expected, Buffer.from(sent))) return undefined;
  const kinds = MAIL_KINDS.filter((kind) => letters.includes(LETTERS[kind]));
  return { userId: Number(id), kinds };
}

function readOr400(ctx: AppContext, token: string) {
  const read = readUnsubscribeToken(ctx.config.jwtSecret, token);
  if (!read) throw badRequest(UNSUBSCRIBE_LINK_INVALID);
  return read;
}

/** GET /api/unsubscribe?token=…: what the link would turn off, for the page to ask. */
export function unsubscribeQuestion(ctx: AppContext, token: string): { kinds: MailKind[] } {
  return { kinds: readOr400(ctx, token).kinds };
}

/** POST /unsubscribe?token=…: those kinds of mail off; the answer says which. */
export async function unsubscribe(ctx: AppContext, token: string): Promise<string> {
  const { userId, kinds } = readOr400(ctx, token);
  const off: Partial<PreferenceColumns> = {};
  for (const kind of kinds) {
    if (kind === 'digest') off.mail_digest = 'off';
    else off[`mail_${kind}`] = 0;
  }
  // An account deleted since changes nothing, and is told the same.
  await updatePreferences(ctx.db, userId, off);
  return unsubscribedText(kinds);
}
