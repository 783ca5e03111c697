// disable-2fa USERNAME: turns a locked-out user's two-factor sign-in off (lost phone, no recovery
// codes left), so that their password alone signs them in again. Their sessions go on; with mail
// on, they are told by mail.
import { turnOffTwoFactor } from '../../server/auth/two-factor.service.ts';
import { CommandFailure, userNamed, type Command } from './cli.ts';

export const disableTwoFactorCommand: Command<{ username: string }> = {
  name: 'disable-2fa',
  usage: 'disable-2fa USERNAME',
  summary: 'Turn off a locked-out user\'s two-factor sign-in.',
  details: [
    'Their secret and recovery codes are deleted; they sign in with their password alone',
    'and can set two-factor sign-in up again in Settings → Security.',
    'Make sure first that the request comes from the account\'s owner.',
  ],
  example: 'npm run admin -- disable-2fa ana',
  positionals: ['USERNAME'],
  parse: ({ positionals }) => ({ username: positionals[0]! }),
  async run(ctx, { username }, out) {
    const user = await userNamed(ctx, username);
    if (user.two_factor_enabled !== 1) throw new CommandFailure(`Two-factor sign-in is not on for ${user.username}`);
    await turnOffTwoFactor(ctx, user);
    out.line(`Two-factor sign-in turned off for ${user.username}; they can sign in with their password alone`);
  },
};
