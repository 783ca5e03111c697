// Two-factor sign-in (DESIGN.md, Running a community): set up from Settings → Security (the
// password, then a code from the app turns it on and gives 10 recovery codes, once), the second
// step of a login, and turning it off (the password and a code). A code is refused when a code of
// its time step or a later one was already used; a recovery code works once. Guesses at a code are
// counted by the login's own throttle, under a key of their own per account: a right password
// must not wipe out the failed codes before it. None of this ends a session; with mail on, the
// account is told when it is turned on or off (two-factor.mail.ts).
import {
  INVALID_TWO_FACTOR_CODE, RECOVERY_CODE_COUNT, TWO_FACTOR_ALREADY_ON, TWO_FACTOR_CHALLENGE_EXPIRED,
  TWO_FACTOR_CODE_REQUIRED, TWO_FACTOR_NOT_ON, TWO_FACTOR_OFF_MESSAGE, TWO_FACTOR_ON_MESSAGE, TWO_FACTOR_SETUP_FIRST,
} from '../../shared/two-factor.ts';
import { PASSWORD_REQUIRED_MESSAGE, WRONG_PASSWORD_MESSAGE } from '../../shared/accounts.ts';
import type { AppContext } from '../context.ts';
import { badRequest, conflict, forbidden, unauthorized, type HttpError } from '../errors.ts';
import { rawText, type Body } from '../http.ts';
import { tooManyAttempts } from '../rate-limits.ts';
import type { DB, UserRow } from '../schema.ts';
import { activeBan, banMessage } from '../users/users.bans.ts';
import { findUser } from '../users/users.service.ts';
import { toPrivateUser, type PrivateUser } from '../users/users.view.ts';
import { confirmPassword, signIn, type LoginClient, type LoginResult } from './auth.service.ts';
import { challengeFits, readChallenge } from './two-factor.challenge.ts';
import { queueTwoFactorNotice } from './two-factor.mail.ts';
import { mailSite, siteName } from '../site/site.service.ts';
import { newRecoveryCode, newTotpSetup, recoveryCodeHash, totpStep, type TotpSetup } from './two-factor.codes.ts';
import {
  confirmTwoFactor, deleteTwoFactor, findTwoFactor, upsertPendingSecret, useRecoveryCode, useTimeStep,
} from './two-factor.repo.ts';

/** What proves the second factor: the app's code, or one of the recovery codes. */
type Proof = { code: string } | { recoveryCode: string };

function proofOf(body: Body): Proof {
  const code = rawText(body, 'code')?.trim();
  const recoveryCode = rawText(body, 'recovery_code')?.trim();
  if (code && !recoveryCode) return { code };
  if (recoveryCode && !code) return { recoveryCode };
  throw badRequest(TWO_FACTOR_CODE_REQUIRED);
}

function passwordOf(body: Body): string {
  const password = rawText(body, 'password') ?? '';
  if (!password) throw badRequest(PASSWORD_REQUIRED_MESSAGE);
  return password;
}

/** The throttle's account for code guesses: not the address, whose count a right password clears. */
const codeAccount = (userId: number) => `two-factor ${userId}`;

/** Uses up the code (its time step) or the recovery code when it is right; `wrong` otherwise. */
async function checkSecondFactor(db: DB, userId: number, proof: Proof, client: LoginClient, wrong: HttpError): Promise<void> {
  const account = codeAccount(userId);
  const wait = await client.guard.begin(client.ip, account);
  if (wait > 0) throw tooManyAttempts(wait);
  if (!await secondFactorPasses(db, userId, proof)) throw wrong;
  await client.guard.succeeded(client.ip, account);
}

async function secondFactorPasses(db: DB, userId: number, proof: Proof): Promise<boolean> {
  if ('recoveryCode' in proof) return useRecoveryCode(db, userId, recoveryCodeHash(proof.recoveryCode));
  const row = await findTwoFactor(db, userId);
  if (!row || row.confirmed !== 1) return false;
  const step = await totpStep(row.secret, proof.code, row.last_step);
  return step !== undefined && await useTimeStep(db, userId, step);
}

/** POST /api/auth/login/2fa: the second step of a login, the same answer as a login without it. */
export async function completeTwoFactorLogin(ctx: AppContext, body: Body, client: LoginClient): Promise<LoginResult> {
  const challenge = readChallenge(ctx.config, rawText(body, 'challenge') ?? '');
  const proof = proofOf(body);
  if (!challenge) throw unauthorized(TWO_FACTOR_CHALLENGE_EXPIRED);
  const user = await findUser(ctx.db, challenge.userId);
  // A password changed, or every session ended, since the challenge was given voids it.
  if (!user || user.two_factor_enabled !== 1 || !challengeFits(user, challenge.fingerprint)) {
    throw unauthorized(TWO_FACTOR_CHALLENGE_EXPIRED);
  }
  // A ban given since the password step is told as the login tells it, and uses no code up.
  const ban = activeBan(user);
  if (ban) throw forbidden(banMessage(ban));
  await checkSecondFactor(ctx.db, user.id, proof, client, unauthorized(INVALID_TWO_FACTOR_CODE));
  return signIn(ctx, user);
}

/** POST /api/users/me/two-factor/setup {password}: a new secret to scan, waiting for its first code. */
export async function startTwoFactorSetup(ctx: AppContext, user: UserRow, body: Body, client: LoginClient): Promise<TotpSetup> {
  const password = passwordOf(body);
  if (user.two_factor_enabled === 1) throw conflict(TWO_FACTOR_ALREADY_ON);
  await confirmPassword(user, password, client, WRONG_PASSWORD_MESSAGE);
  const setup = await newTotpSetup(user.username, await siteName(ctx));
  if (!await upsertPendingSecret(ctx.db, user.id, setup.secret)) throw conflict(TWO_FACTOR_ALREADY_ON);
  return setup;
}

export interface TwoFactorEnabled {
  detail: string;
  /** Shown once: only their hashes are kept. */
  recovery_codes: string[];
  user: PrivateUser;
}

/** POST /api/users/me/two-factor {code}: the app's first code turns it on. */
export async function enableTwoFactor(ctx: AppContext, user: UserRow, body: Body): Promise<TwoFactorEnabled> {
  const code = rawText(body, 'code')?.trim();
  if (!code) throw badRequest(TWO_FACTOR_CODE_REQUIRED);
  if (user.two_factor_enabled === 1) throw conflict(TWO_FACTOR_ALREADY_ON);
  const pending = await findTwoFactor(ctx.db, user.id);
  if (!pending || pending.confirmed === 1) throw conflict(TWO_FACTOR_SETUP_FIRST);
  const step = await totpStep(pending.secret, code);
  if (step === undefined) throw badRequest(INVALID_TWO_FACTOR_CODE);
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  const site = await mailSite(ctx);
  const confirmed = await ctx.db.transaction().execute(async (trx) => {
    const done = await confirmTwoFactor(trx, user.id, pending.secret, step, codes.map(recoveryCodeHash));
    if (done) await queueTwoFactorNotice(ctx, site, trx, user, 'on');
    return done;
  });
  // A set-up started again meanwhile, in another tab: this code was for the secret it replaced.
  if (!confirmed) throw conflict(TWO_FACTOR_SETUP_FIRST);
  return { detail: TWO_FACTOR_ON_MESSAGE, recovery_codes: codes, user: toPrivateUser({ ...user, two_factor_enabled: 1 }) };
}

/** DELETE /api/users/me/two-factor {password, code | recovery_code}. */
export async function disableTwoFactor(
  ctx: AppContext, user: UserRow, body: Body, client: LoginClient,
): Promise<{ detail: string; user: PrivateUser }> {
  const password = passwordOf(body);
  const proof = proofOf(body);
  if (user.two_factor_enabled !== 1) throw conflict(TWO_FACTOR_NOT_ON);
  await confirmPassword(user, password, client, WRONG_PASSWORD_MESSAGE);
  await checkSecondFactor(ctx.db, user.id, proof, client, forbidden(INVALID_TWO_FACTOR_CODE));
  const site = await mailSite(ctx);
  await ctx.db.transaction().execute(async (trx) => {
    await deleteTwoFactor(trx, user.id);
    await queueTwoFactorNotice(ctx, site, trx, user, 'off');
  });
  return { detail: TWO_FACTOR_OFF_MESSAGE, user: toPrivateUser({ ...user, two_factor_enabled: 0 }) };
}

/** The CLI's disable-2fa, for a user locked out; they are told by mail, when mail is on. */
export async function turnOffTwoFactor(ctx: AppContext, user: UserRow): Promise<void> {
  const site = await mailSite(ctx);
  await ctx.db.transaction().execute(async (trx) => {
    await deleteTwoFactor(trx, user.id);
    await queueTwoFactorNotice(ctx, site, trx, user, 'off by the operator');
  });
}
