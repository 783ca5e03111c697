// A remote actor, as Fedify fetched and parsed it, made what Beatnik keeps (remote_actors): its
// handle (WebFinger's, through Fedify's getActorHandle, else preferredUsername@host), its name,
// profile page and avatar for the comments it writes, its inboxes for the Accept it is owed.
// Only http(s) addresses are kept: a page links to them.
import { getActorHandle, type Actor } from '@fedify/vocab';
import { normalizeLine } from '../../shared/text.ts';
import type { RemoteActorValues } from './federation.inbox.service.ts';

const NAME_MAX = 200;
/** The longest address or id kept (an actor's, a comment's, a follow's, a like's; Fedify's record of activities handled). */
export const ID_MAX = 2048;

function webAddress(url: URL | null | undefined): string | null {
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.href.length > ID_MAX) return null;
  return url.href;
}

/** Its handle, user@domain (the domain lower-cased); undefined when it has none to give. */
async function handleOf(actor: Actor, id: URL): Promise<string | undefined> {
  const username = actor.preferredUsername?.toString();
  // Its server's WebFinger says it; a private address, or a server that does not answer, leaves
  // preferredUsername@host (Fedify refuses private addresses here whatever the federation allows,
  // and a host with a port is no domain to it).
  let handle = await getActorHandle(actor, { trimLeadingAt: true }).catch(() => undefined);
  if (!handle || handle.endsWith('@')) handle = username ? `${username}@${id.host}` : undefined;
  const at = handle?.lastIndexOf('@') ?? -1;
  // Nothing invisible or controlling in it: a handle is how readers tell one author from another.
  if (!handle || at < 1 || at === handle.length - 1 || handle.length > NAME_MAX || /[\s/]/.test(handle) || normalizeLine(handle) !== handle) return undefined;
  return `${handle.slice(0, at)}@${handle.slice(at + 1).toLowerCase()}`;
}

async function avatarOf(actor: Actor): Promise<string | null> {
  const icon = await actor.getIcon({ suppressError: true }).catch(() => null);
  const url = icon?.url;
  return webAddress(url instanceof URL ? url : url?.href ?? null);
}

export async function remoteActorValues(actor: Actor | null): Promise<RemoteActorValues | undefined> {
  const id = actor?.id;
  const inbox = webAddress(actor?.inboxId);
  if (!actor || !id || !webAddress(id) || !inbox) return undefined;
  const handle = await handleOf(actor, id);
  if (!handle) return undefined;
  const page = actor.url;
  return {
    uri: id.href,
    handle,
    domain: handle.slice(handle.lastIndexOf('@') + 1),
    name: normalizeLine(actor.name?.toString() ?? '').slice(0, NAME_MAX),
    url: webAddress(page instanceof URL ? page : page?.href ?? null),
    avatar_url: await avatarOf(actor),
    inbox,
    shared_inbox: webAddress(actor.endpoints?.sharedInbox),
  };
}
