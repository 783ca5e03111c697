// Who may register now (DESIGN.md, Registration), asked before an account is written:
// 'open' lets anyone in; 'closed' no one (403); 'invite' only a registration naming a live code
// (403 without one); 'approval' lets an account in waiting for an admin — unless it names a live
// code: an admin vouched for it by inviting it, so it need not wait.
import type { AppContext } from '../context.ts';
import { forbidden } from '../errors.ts';
import type { Body } from '../http.ts';
import type { DB, UserRow } from '../schema.ts';
import { notify } from '../notifications/notifications.service.ts';
import { registrationMode } from '../site/site.service.ts';
import { adminIds } from '../users/users.service.ts';
import { INVITATION_ONLY_MESSAGE, REGISTRATION_CLOSED_MESSAGE } from '../../shared/registration.ts';
import { inviteCodeOf, isLiveInvite, useInvite } from './invites.service.ts';

export interface Admission {
  /** The account waits for an admin's approval. */
  pending: boolean;
  /** The invitation whose use it takes, in the registration's transaction. */
  invite: string | undefined;
}

/** Refuses a registration the mode in force does not let in; says how the account is let in. */
export async function admission(ctx: AppContext, body: Body): Promise<Admission> {
  const mode = await registrationMode(ctx);
  if (mode === 'closed') throw forbidden(REGISTRATION_CLOSED_MESSAGE);
  if (mode === 'open') return { pending: false, invite: undefined };
  const code = inviteCodeOf(body);
  if (code && await isLiveInvite(ctx.db, code)) return { pending: false, invite: code };
  if (mode === 'invite') throw forbidden(INVITATION_ONLY_MESSAGE);
  return { pending: true, invite: undefined };
}

/** In the new account's transaction: the invitation's use taken, or the admins told it waits. */
export async function admit(trx: DB, admitted: Admission, user: UserRow): Promise<void> {
  if (admitted.invite) await useInvite(trx, admitted.invite);
  if (!admitted.pending) return;
  for (const adminId of await adminIds(trx)) {
    await notify(trx, {
      userId: adminId,
      type: 'general',
      subject: 'New account waiting for approval',
      message: `${user.username} signed up and is waiting for approval: see the Pending tab of the admin page.`,
    });
  }
}
