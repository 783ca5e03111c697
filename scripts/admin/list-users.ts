// list-users [--banned] [--level L] [--search S] [--limit N]: a readable table of accounts.
import { nowIso } from '../../server/db.ts';
import { listUsers } from '../../server/admin/admin.service.ts';
import type { PrivateUser } from '../../server/users/users.view.ts';
import { utcDateTime } from '../../shared/dates.ts';
import { plural } from '../../shared/plural.ts';
import { UsageError, formatTable, type Command } from './cli.ts';

interface Args {
  banned: boolean;
  level?: 'user' | 'admin';
  search?: string;
  limit: number;
}

export const listUsersCommand: Command<Args> = {
  name: 'list-users',
  usage: 'list-users [--banned] [--level user|admin] [--search TEXT] [--limit N]',
  summary: 'Show accounts, newest first: id, username, email, level, posts, followers, mojo, banned until.',
  details: [
    '--banned shows only users banned right now; --search matches inside username or email;',
    '--limit defaults to 100 (at most 10000).',
  ],
  example: 'npm run admin -- list-users --banned',
  options: {
    banned: { type: 'boolean' }, level: { type: 'string' }, search: { type: 'string' }, limit: { type: 'string' },
  },
  parse({ values }) {
    const level = values.level;
    if (level !== undefined && level !== 'user' && level !== 'admin') throw new UsageError('--level must be user or admin');
    const limitText = typeof values.limit === 'string' ? values.limit.trim() : '100';
    const limit = /^\d{1,5}$/.test(limitText) ? Number(limitText) : NaN;
    if (!(limit >= 1 && limit <= 10_000)) throw new UsageError('--limit must be a whole number from 1 to 10000');
    return {
      banned: values.banned === true, level, limit,
      search: typeof values.search === 'string' ? values.search : undefined,
    };
  },
  async run(ctx, args, out) {
    const { users, total } = await listUsers(ctx, {
      level: args.level, search: args.search, bannedAsOf: args.banned ? nowIso() : undefined,
    }, { skip: 0, limit: args.limit });
    if (users.length === 0) {
      out.line(args.banned ? 'No banned users.' : 'No users found.');
      return;
    }
    const headers = ['id', 'username', 'email', 'level', 'posts', 'followers', 'mojo', 'banned until'];
    for (const line of formatTable(headers, users.map(row))) out.line(line);
    out.line(`${users.length} of ${plural(total, 'user')}`);
  },
};

function row(user: PrivateUser): string[] {
  const banned = !user.is_banned ? '' : user.ban_permanent || !user.ban_until ? 'permanent' : utcDateTime(user.ban_until);
  return [String(user.id), user.username, user.email, user.level, String(user.posts_count),
    String(user.followers_count), user.mojo.toFixed(1), banned];
}
