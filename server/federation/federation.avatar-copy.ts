// The `federation.avatar` job (federation.avatars.ts): a remote actor's picture fetched from the
// address their server gave (federation.avatar-download.ts), decoded and re-encoded as a user's
// avatar is (images/images.ts: 400×400 grayscale JPEG), kept in the image store under a name of
// its own (remote-avatar-….jpg) and recorded on the actor, the copy it replaces removed. A job
// whose address has moved on since (a newer job has the new one), or whose actor is gone, does
// nothing; an address that is not https, or a blocked actor's or server's, leaves none. A picture
// that cannot be had for good (a refused address, a redirect off https, too large, not an image
// that decodes) leaves the actor with no picture and the job given up (PermanentJobError);
// anything else is tried again as jobs are, the copy there was kept meanwhile.
import type { AppContext } from '../context.ts';
import { HttpError } from '../errors.ts';
import { removeImage, storeImage } from '../images/images.ts';
import { PermanentJobError, type JobHandler } from '../jobs/jobs.runner.ts';
import { findAvatarSource, replaceAvatar } from './federation-avatars.repo.ts';
import { downloadImage, type DownloadLimits } from './federation.avatar-download.ts';
import type { AvatarJob } from './federation.avatars.ts';
import { blockOfSender, deliveryBlocked } from './federation.blocks.ts';

export function copyRemoteAvatar(ctx: AppContext, limits: Partial<DownloadLimits> = {}): JobHandler {
  const download: DownloadLimits = {
    allowPrivateAddress: ctx.config.federation.allowPrivateAddress, publicUrl: ctx.config.publicUrl, ...limits,
  };
  return async (payload: AvatarJob) => {
    const { actorId, url } = payload;
    const source = await findAvatarSource(ctx.db, actorId);
    if (!source || source.avatar_url !== url) return;
    // None now, one a page would load over http, or a blocked one's: no picture.
    if (url === null || !isHttps(url) || await blocked(ctx, source.uri, url)) return keep(ctx, actorId, url, null);
    let bytes: Buffer;
    let name: string;
    try {
      bytes = await downloadImage(url, download);
      name = await storeImage(ctx.images, 'remote-avatar', bytes);
    } catch (err) {
      const undecodable = err instanceof HttpError && err.status === 400;
      if (!undecodable && !(err instanceof PermanentJobError)) throw err;
      await keep(ctx, actorId, url, null);
      throw undecodable ? new PermanentJobError(`${url}: not a picture that decodes`) : err;
    }
    await keep(ctx, actorId, url, name);
  };
}

/** The actor's picture is `name` (null: none), if their address is still `url`; the file it replaces removed. */
async function keep(ctx: AppContext, actorId: number, url: string | null, name: string | null): Promise<void> {
  let replaced: { previous: string | null } | undefined;
  try {
    replaced = await ctx.db.transaction().execute((trx) => replaceAvatar(trx, actorId, url, name));
  } catch (err) {
    await removeImage(ctx.images, name);
    throw err;
  }
  if (!replaced) {
    await removeImage(ctx.images, name);
    return;
  }
  if (replaced.previous === name) return;
  await removeImage(ctx.images, replaced.previous);
  // Comments, follower lists and mutes show it: the pages and lists kept are stale now.
  ctx.readCache?.invalidate();
}

function isHttps(url: string): boolean {
  return URL.canParse(url) && new URL(url).protocol === 'https:';
}

/** A blocked actor's or server's picture is not fetched (their block took away what they had). */
async function blocked(ctx: AppContext, actorUri: string, url: string): Promise<boolean> {
  let actor: URL;
  try {
    actor = new URL(actorUri);
  } catch {
    return true;
  }
  return await blockOfSender(ctx.db, { actor }) !== undefined || await deliveryBlocked(ctx.db, url);
}
