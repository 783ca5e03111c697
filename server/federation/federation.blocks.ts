// Blocks of fediverse servers and accounts (DESIGN.md, Moderation). Blocking one takes away, in
// one transaction, what its actors left here: their follows of local users, their comments (as a
// deletion takes a comment away, counters and mojo with it), their likes and boosts, the copies of
// their pictures (the files once committed); the moderation log records it. Afterwards the inbox
// refuses what they send (federation.gate.ts) and nothing more is delivered to a blocked server
// (federation.service.ts). Lifting a block restores
// nothing: a follower follows again. No Fedify here: the admin's routes load none of it.
import { BLOCK_OWN_SERVER_MESSAGE, BLOCK_REASON_LENGTH_MESSAGE, BLOCK_REASON_MAX, BLOCK_TARGET_MESSAGE, parseBlockTarget, type BlockTarget } from '../../shared/federation-blocks.ts';
import { plural } from '../../shared/plural.ts';
import { removeCommentsOfRemoteActors } from '../comments/remote-removal.service.ts';
import type { AppContext } from '../context.ts';
import { nowIso } from '../db.ts';
import { badRequest, notFound } from '../errors.ts';
import { lineText, type Body, type Page } from '../http.ts';
import { recordModeration } from '../moderation/moderation.service.ts';
import type { DB, UserRow } from '../schema.ts';
import { clearAvatars } from './federation-avatars.repo.ts';
import { removeAvatarCopies } from './federation.avatars.ts';
import {
  countBlocks, deleteBlock, deleteReactions, deleteRemoteFollows, findActorHandles, findBlock, findBlockedTargets, insertBlock,
  listAccountBlocks, listActorsMentioning, listActorsOfDomain, listBlocks, type ActorAddress, type BlockRow,
} from './federation-blocks.repo.ts';

export type Block = BlockRow;

export interface BlockRemovals {
  followers: number;
  comments: number;
  likes: number;
  boosts: number;
}

/** Statements per chunk of actors: their ids are bound values, of which a statement takes only so many. */
const CHUNK = 500;

/**
 * The targets that block an address: its host with its port, then its host name and every domain
 * above it (`a.b.example.org`, `b.example.org`, `example.org`, `org`): a server's block covers its
 * subdomains and all its ports, a `host:port` block that port alone.
 */
export function targetsCovering(address: URL): string[] {
  const name = address.hostname;
  const targets = new Set([address.host, name]);
  if (!/^[\d.]+$/.test(name) && !name.startsWith('[')) {
    const labels = name.split('.');
    for (let i = 1; i < labels.length; i++) targets.add(labels.slice(i).join('.'));
  }
  return [...targets];
}

/** The targets that block an account by its handle (`user@domain`): with and without the domain's port. */
export function accountTargetsOf(handle: string): string[] {
  const parsed = parseBlockTarget(handle);
  if (parsed?.kind !== 'account') return [];
  const hostname = new URL(`https://${parsed.host}`).hostname;
  return [...new Set([parsed.target, `@${parsed.username}@${hostname}`])];
}

/** The target as an admin named it, or the 400; never this site itself. */
export function blockTargetOf(ctx: Pick<AppContext, 'config'>, text: string): BlockTarget {
  const parsed = parseBlockTarget(text);
  if (!parsed) throw badRequest(BLOCK_TARGET_MESSAGE);
  // Its own host as PUBLIC_URL names it, port included (test instances share 127.0.0.1 by port).
  if (parsed.host === new URL(ctx.config.publicUrl).host) throw badRequest(BLOCK_OWN_SERVER_MESSAGE);
  return parsed;
}

export async function blockTarget(
  ctx: AppContext, admin: UserRow, text: string, body: Body,
): Promise<{ message: string; block: Block; removed: BlockRemovals }> {
  const target = blockTargetOf(ctx, text);
  const reason = lineText(body, 'reason') ?? '';
  if (reason.length > BLOCK_REASON_MAX) throw badRequest(BLOCK_REASON_LENGTH_MESSAGE);
  const at = nowIso();
  const { removed, block, avatars } = await ctx.db.transaction().execute(async (trx) => {
    if (!await insertBlock(trx, target.target, admin.id, at)) return { removed: undefined, block: (await findBlock(trx, target.target))!, avatars: [] };
    const actors = await actorsCoveredBy(trx, target);
    const removals: BlockRemovals = { followers: 0, comments: 0, likes: 0, boosts: 0 };
    const pictures: string[] = [];
    for (let start = 0; start < actors.length; start += CHUNK) {
      const ids = actors.slice(start, start + CHUNK).map((actor) => actor.id);
      removals.followers += await deleteRemoteFollows(trx, ids);
      const reactions = await deleteReactions(trx, ids);
      removals.likes += reactions.likes;
      removals.boosts += reactions.boosts;
      pictures.push(...await clearAvatars(trx, ids));
    }
    removals.comments = await removeCommentsOfRemoteActors(trx, actors.map((actor) => actor.id), at);
    await recordModeration(trx, { adminId: admin.id, action: 'block', targetUserId: null, target: target.target, reason: reason || null });
    return { removed: removals, block: (await findBlock(trx, target.target))!, avatars: pictures };
  });
  await removeAvatarCopies(ctx, avatars);
  if (!removed) return { message: `${target.target} is already blocked`, block, removed: { followers: 0, comments: 0, likes: 0, boosts: 0 } };
  return { message: `${target.target} is blocked${removalsText(removed)}`, block, removed };
}

export async function unblockTarget(ctx: AppContext, admin: UserRow, text: string): Promise<{ message: string }> {
  const target = blockTargetOf(ctx, text);
  await ctx.db.transaction().execute(async (trx) => {
    if (!await deleteBlock(trx, target.target)) throw notFound(`${target.target} is not blocked`);
    await recordModeration(trx, { adminId: admin.id, action: 'unblock', targetUserId: null, target: target.target });
  });
  return { message: `${target.target} is no longer blocked` };
}

export async function listBlockPage(ctx: AppContext, page: Page): Promise<{ blocks: Block[]; total: number }> {
  const [blocks, total] = await Promise.all([listBlocks(ctx.db, page), countBlocks(ctx.db)]);
  return { blocks, total };
}

/** ': 2 followers, 1 comment and 3 likes or boosts removed', or nothing when nothing was there. */
function removalsText(removed: BlockRemovals): string {
  const parts = [
    removed.followers ? plural(removed.followers, 'follower') : '',
    removed.comments ? plural(removed.comments, 'comment') : '',
    removed.likes + removed.boosts ? plural(removed.likes + removed.boosts, 'like or boost', 'likes or boosts') : '',
  ].filter(Boolean);
  if (parts.length === 0) return '';
  const list = parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
  return `: ${list} removed`;
}

/** The actors Beatnik has met that the target covers: by the domain of their handle, or by their id's host. */
async function actorsCoveredBy(db: DB, target: BlockTarget): Promise<ActorAddress[]> {
  if (target.kind === 'account') {
    const candidates = await listActorsOfDomain(db, target.host);
    return candidates.filter((actor) => accountTargetsOf(actor.handle).includes(target.target));
  }
  const candidates = await listActorsMentioning(db, new URL(`https://${target.host}`).hostname);
  return candidates.filter((actor) => covers(target.target, actor));
}

function covers(target: string, actor: ActorAddress): boolean {
  const hosts: URL[] = [];
  for (const text of [actor.uri, `https://${actor.domain}`]) {
    try {
      hosts.push(new URL(text));
    } catch {
      // not an address: it covers nothing
    }
  }
  return hosts.some((host) => targetsCovering(host).includes(target));
}

/** What the inbox knows of a sender before Fedify checks its signature: its actor's id and its key's. */
export interface Sender {
  actor?: URL;
  keyId?: URL;
}

/**
 * The block that refuses the sender, if any: a server's, of its actor's or its key's host; or an
 * account's, by the handle Beatnik knows for the actor, or, for an actor it has never met and
 * whose host has an account blocked, by `preferredUsername@host` of the actor as `lookUp` finds
 * it (a request to that server, made only then).
 */
export async function blockOfSender(
  db: DB, sender: Sender, lookUp?: (actor: URL) => Promise<string | undefined>,
): Promise<string | undefined> {
  const addresses = [sender.actor, sender.keyId].filter((url): url is URL => url !== undefined);
  if (addresses.length === 0) return undefined;
  const ids = [...new Set(addresses.map((url) => withoutFragment(url)))];
  const known = await findActorHandles(db, ids);
  const targets = new Set(addresses.flatMap(targetsCovering));
  for (const actor of known) for (const target of accountTargetsOf(actor.handle)) targets.add(target);
  const [blocked] = await findBlockedTargets(db, [...targets]);
  if (blocked || !sender.actor || !lookUp || known.some((actor) => actor.uri === withoutFragment(sender.actor!))) return blocked;
  const actor = sender.actor;
  const accounts = await listAccountBlocks(db);
  const onItsHost = accounts.filter((target) => target.endsWith(`@${actor.host}`) || target.endsWith(`@${actor.hostname}`));
  if (onItsHost.length === 0) return undefined;
  const username = await lookUp(actor);
  return username ? accountTargetsOf(`${username}@${actor.host}`).find((target) => onItsHost.includes(target)) : undefined;
}

/**
 * The block that covers an actor by the handle its server's WebFinger gave (`user@domain`): that
 * account's, or its domain's. The domain of a handle may not be the actor's host (an actor at
 * social.example.com known as bob@example.com), which is all the gate could see before Fedify
 * fetched the actor: the inbox asks this once it has.
 */
export async function blockOfHandle(db: DB, handle: string): Promise<string | undefined> {
  const domain = handle.slice(handle.lastIndexOf('@') + 1);
  let targets: string[];
  try {
    targets = [...accountTargetsOf(handle), ...targetsCovering(new URL(`https://${domain}`))];
  } catch {
    return undefined;
  }
  return (await findBlockedTargets(db, targets))[0];
}

/** Whether a delivery to this inbox is to a blocked server (then it is dropped, not retried). */
export async function deliveryBlocked(db: DB, inbox: string): Promise<boolean> {
  let url: URL;
  try {
    url = new URL(inbox);
  } catch {
    return false;
  }
  return (await findBlockedTargets(db, targetsCovering(url))).length > 0;
}

function withoutFragment(url: URL): string {
  const copy = new URL(url);
  copy.hash = '';
  return copy.href;
}
