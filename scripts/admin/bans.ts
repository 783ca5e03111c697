// ban USERNAME --reason R (--days N | --permanent) / unban USERNAME: the admin panel's rules,
// with the operator as the actor (no admin name on the ban notice).
import { banUser, unbanUser } from '../../server/admin/admin.service.ts';
import { utcDateTime } from '../../shared/dates.ts';
import { UsageError, requiredText, userNamed, type Command } from './cli.ts';

const DAY_MS = 86_400_000;

interface BanArgs {
  username: string;
  reason: string;
  days: number | null;
}

export const ban: Command<BanArgs> = {
  name: 'ban',
  usage: 'ban USERNAME --reason R (--days N | --permanent)',
  summary: 'Ban a user for N days (1-365) or permanently; signs them out everywhere.',
  details: [
    'Admins cannot be banned (demote them first). A new ban replaces an earlier one.',
    'The user gets a ban notice and every token they hold stops working at once.',
  ],
  example: 'npm run admin -- ban spammer42 --reason "Repeated spam" --days 7',
  options: { reason: { type: 'string' }, days: { type: 'string' }, permanent: { type: 'boolean' } },
  positionals: ['USERNAME'],
  parse({ values, positionals }) {
    const reason = requiredText(values, 'reason');
    const daysText = typeof values.days === 'string' ? values.days.trim() : undefined;
    if ((daysText === undefined) === (values.permanent !== true)) {
      throw new UsageError('give either --days N or --permanent');
    }
    if (daysText === undefined) return { username: positionals[0]!, reason, days: null };
    const days = /^\d{1,3}$/.test(daysText) ? Number(daysText) : NaN;
    if (!(days >= 1 && days <= 365)) throw new UsageError('--days must be a whole number from 1 to 365');
    return { username: positionals[0]!, reason, days };
  },
  async run(ctx, args, out) {
    const user = await userNamed(ctx, args.username);
    const now = new Date();
    const until = args.days === null ? null : new Date(now.getTime() + args.days * DAY_MS);
    const result = await banUser(ctx, null, { userId: user.id, permanent: until === null, until, reason: args.reason }, now);
    const end = until ? ` (until ${utcDateTime(until)})` : '';
    out.line(`${result.message}: ${user.username}${end}`);
  },
};

export const unban: Command<{ username: string }> = {
  name: 'unban',
  usage: 'unban USERNAME',
  summary: 'Lift a ban; the user can log in again.',
  example: 'npm run admin -- unban spammer42',
  positionals: ['USERNAME'],
  parse: ({ positionals }) => ({ username: positionals[0]! }),
  async run(ctx, { username }, out) {
    const user = await userNamed(ctx, username);
    const result = await unbanUser(ctx, null, user.id);
    out.line(`${result.message}: ${user.username}`);
  },
};
