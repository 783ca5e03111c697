// The account is told by mail, when mail is on, that its two-factor sign-in was turned on or off
// (by its owner, or by the site's operator with the CLI): a change made with a stolen password and
// session is then not a silent one. Queued in the change's own transaction.
import type { AppContext } from '../context.ts';
import { composeMail, type MailSite } from '../mail/mail.compose.ts';
import { queueMail } from '../mail/mail.outbox.ts';
import type { DB, UserRow } from '../schema.ts';

export type TwoFactorChange = 'on' | 'off' | 'off by the operator';

/** `site`: read before the transaction (site/site.service.ts mailSite). */
export async function queueTwoFactorNotice(
  ctx: Pick<AppContext, 'config'>, site: MailSite, trx: DB, user: Pick<UserRow, 'username' | 'email'>, change: TwoFactorChange,
): Promise<void> {
  if (!ctx.config.mail) return;
  const url = site.url;
  const on = change === 'on';
  const who = change === 'off by the operator' ? " by the site's administrators, at your request or theirs" : '';
  await queueMail(trx, {
    to: user.email,
    ...composeMail(site, {
      subject: on ? `Two-factor sign-in is on for your ${site.name} account` : `Two-factor sign-in was turned off on your ${site.name} account`,
      heading: on ? 'Two-factor sign-in is on' : 'Two-factor sign-in is off',
      paragraphs: on
        ? [`Two-factor sign-in was just turned on for ${user.username}'s account on ${site.name}: signing in now asks for a code from your authenticator app after your password.`,
          'If this was not you, reset your password at once and tell the site\'s administrators.']
        : [`Two-factor sign-in was just turned off for ${user.username}'s account on ${site.name}${who}: your password alone signs in now.`,
          'If this was not you, change your password at once, turn two-factor sign-in on again in Settings → Security, and tell the site\'s administrators.'],
      action: { label: 'Open Settings', url: `${url}/settings` },
    }),
  });
}
