// Remote authors' pictures are copies, never loaded from their servers (the page works offline):
// whenever an actor is stored with a picture's address new to us, a `federation.avatar` job is
// queued in that write's transaction; it fetches, re-encodes and keeps the copy
// (federation.avatar-copy.ts), which the API answers as /uploads/…. An actor deleted or blocked
// takes their copy along. No Fedify here: the admin's blocks use it.
import type { AppContext } from '../context.ts';
import { removeImage } from '../images/images.ts';
import { enqueueJob } from '../jobs/jobs.service.ts';
import { FEDERATION_QUEUE } from '../federation-outgoing/federation-outgoing.service.ts';
import type { DB } from '../schema.ts';
import { findAvatarUrl } from './federation-avatars.repo.ts';

export const AVATAR_JOB = 'federation.avatar';

/** The job's payload: the actor, and the address their picture had when it was queued (null: none now). */
export interface AvatarJob {
  actorId: number;
  url: string | null;
}

/** The actor's picture's address before a write of theirs (null: none, or an actor never met). */
export async function avatarUrlBefore(trx: DB, uri: string): Promise<string | null> {
  return (await findAvatarUrl(trx, uri))?.avatar_url ?? null;
}

/** A copy of the actor's picture queued in `trx`, when its address is not the one it was. */
export async function queueAvatarCopy(trx: DB, actorId: number, before: string | null, url: string | null): Promise<void> {
  if (before === url) return;
  const job: AvatarJob = { actorId, url };
  await enqueueJob(trx, { kind: AVATAR_JOB, queue: FEDERATION_QUEUE, payload: job });
}

/** The files of copies no actor shows any more, removed once the act that dropped them has committed. */
export async function removeAvatarCopies(ctx: Pick<AppContext, 'images'>, names: readonly (string | null)[]): Promise<void> {
  for (const name of names) await removeImage(ctx.images, name);
}
