// create-admin: a new admin account, validated like a registration, or an existing account
// (found by email) promoted to admin.
import { changeUserLevel } from '../../server/admin/admin.service.ts';
import { LET_IN, register, validateRegistration } from '../../server/auth/auth.service.ts';
import { HttpError } from '../../server/errors.ts';
import { EMAIL_MESSAGE, isValidEmail, normalizeEmail } from '../../server/users/users.names.ts';
import { approvePendingUser, findUserByEmail } from '../../server/users/users.service.ts';
import { UsageError, readStdin, requiredText, type Command } from './cli.ts';

interface Args {
  email: string;
  username?: string;
  password?: string;
  passwordStdin: boolean;
}

export const createAdmin: Command<Args> = {
  name: 'create-admin',
  usage: 'create-admin --email E [--username U] [--password P | --password-stdin]',
  summary: 'Create an admin account, or promote the existing account with that email.',
  details: [
    'For a new account --username and a password are required and checked like a registration',
    '(username 3-35 ASCII letters, digits, dots, hyphens, underscores, starting and ending with a',
    'letter or digit, and not a look-alike of a taken name; password at least 6 characters).',
    'If an account with that email exists it is promoted; its username and password are kept.',
    '--password-stdin reads the password from standard input (keeps it out of shell history).',
  ],
  example: 'npm run admin -- create-admin --username editor --email editor@example.com --password "s3cret-pass"',
  options: {
    email: { type: 'string' },
    username: { type: 'string' },
    password: { type: 'string' },
    'password-stdin': { type: 'boolean' },
  },
  parse({ values }) {
    const email = normalizeEmail(requiredText(values, 'email'));
    if (!isValidEmail(email)) throw new UsageError(EMAIL_MESSAGE);
    if (typeof values.password === 'string' && values['password-stdin']) {
      throw new UsageError('use either --password or --password-stdin, not both');
    }
    return {
      email,
      username: typeof values.username === 'string' ? values.username : undefined,
      password: typeof values.password === 'string' ? values.password : undefined,
      passwordStdin: values['password-stdin'] === true,
    };
  },
  async run(ctx, args, out) {
    const existing = await findUserByEmail(ctx.db, args.email);
    if (existing) {
      // An account waiting for approval is let in as it is made an admin.
      if (existing.pending) await approvePendingUser(ctx.db, existing.id);
      if (existing.level === 'admin') {
        out.line(`${existing.username} (id ${existing.id}) is already an admin`);
        return;
      }
      await changeUserLevel(ctx, null, { userId: existing.id, level: 'admin' });
      out.line(`Promoted existing user ${existing.username} (id ${existing.id}) to admin`);
      return;
    }
    const password = args.passwordStdin ? await readStdin() : args.password;
    if (args.username === undefined || password === undefined) {
      throw new UsageError('a new account needs --username and --password (or --password-stdin)');
    }
    const body = { username: args.username, email: args.email, password };
    try {
      validateRegistration(body);
    } catch (err) {
      if (err instanceof HttpError) throw new UsageError(err.detail);
      throw err;
    }
    const { user } = await register(ctx, body, LET_IN); // in every registration mode
    await changeUserLevel(ctx, null, { userId: user.id, level: 'admin' });
    out.line(`Created admin ${user.username} (id ${user.id}, ${user.email})`);
  },
};
