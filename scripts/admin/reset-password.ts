// reset-password USERNAME: sets a new password (generated, or read from stdin) and signs the
// user out everywhere by bumping their token version.
import { randomBytes } from 'node:crypto';
import { passwordProblem } from '../../server/users/users.names.ts';
import { hashPassword } from '../../server/auth/passwords.ts';
import { setPasswordHash } from '../../server/users/users.service.ts';
import { UsageError, readStdin, userNamed, type Command } from './cli.ts';

export const resetPasswordCommand: Command<{ username: string; passwordStdin: boolean }> = {
  name: 'reset-password',
  usage: 'reset-password USERNAME [--password-stdin]',
  summary: 'Give a user a new password and end all their sessions.',
  details: [
    'Without --password-stdin a random password is generated and printed once.',
    'Every token the user holds stops working at once.',
  ],
  example: 'npm run admin -- reset-password ana',
  options: { 'password-stdin': { type: 'boolean' } },
  positionals: ['USERNAME'],
  parse: ({ positionals, values }) => ({ username: positionals[0]!, passwordStdin: values['password-stdin'] === true }),
  async run(ctx, { username, passwordStdin }, out) {
    const user = await userNamed(ctx, username);
    const password = passwordStdin ? await readStdin() : randomBytes(12).toString('base64url');
    const problem = passwordProblem(password);
    if (problem) throw new UsageError(problem);
    const hash = await hashPassword(ctx.config, password);
    await setPasswordHash(ctx.db, user.id, hash); // every session ends, and any reset link out
    out.line(passwordStdin
      ? `Password reset for ${user.username}; their sessions have ended`
      : `New password for ${user.username}: ${password}\nTheir sessions have ended; give them the new password safely.`);
  },
};
