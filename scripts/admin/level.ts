// promote USERNAME / demote USERNAME: the same rules as the admin panel's level change.
import { changeUserLevel } from '../../server/admin/admin.service.ts';
import type { UserLevel } from '../../server/schema.ts';
import { userNamed, type Command } from './cli.ts';

function levelCommand(name: string, level: UserLevel, summary: string, details: string[]): Command<{ username: string }> {
  return {
    name,
    usage: `${name} USERNAME`,
    summary,
    details,
    example: `npm run admin -- ${name} ana`,
    positionals: ['USERNAME'],
    parse: ({ positionals }) => ({ username: positionals[0]! }),
    async run(ctx, { username }, out) {
      const user = await userNamed(ctx, username);
      const result = await changeUserLevel(ctx, null, { userId: user.id, level });
      out.line(`${result.message}: ${result.user.username} (id ${result.user.id})`);
    },
  };
}

export const promote = levelCommand('promote', 'admin', 'Make an existing user an admin.',
  ['A currently banned user cannot be promoted: unban them first.']);

export const demote = levelCommand('demote', 'user', 'Make an admin a regular user again.',
  ['The last admin cannot be demoted: promote another user first.']);
