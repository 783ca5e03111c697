// Fedify served from Express 5 (RECIPES.md: @fedify/express does not catch Fedify's errors, which
// can end the process): each request Fedify answers becomes a web Request addressed at PUBLIC_URL
// (what remote servers signed, whatever the reverse proxy in front), and its Response is written
// back. What Fedify does not answer (an HTML page asked for by a browser) goes on to the next route.
// An inbox's body is read here first, at most 256 KB (DESIGN.md), so that the blocks are checked
// before Fedify verifies and handles anything.
import type { Request as ExpressRequest, RequestHandler, Response as ExpressResponse } from 'express';
import type { AppContext } from '../context.ts';
import type { BeatnikFederation } from './federation.ts';
import { findUserIdByUsernameKey, postIdWasGiven, findFederatedPost } from './federation.repo.ts';
import { usernameKey } from '../users/users.names.ts';
import { actorIdentifier, tombstoneOf } from './federation.objects.ts';
import { guardedRequests } from './federation.addresses.ts';

/** DESIGN.md: inbox bodies over 256 KB → 413. */
export const INBOX_BODY_LIMIT = 256 * 1024;
/** How long what one post to the inbox makes Fedify fetch may take in all, while its sender waits. */
const INBOX_FETCHES_MS = 15_000;
/** The largest document fetched for a post to the inbox: an actor, a key, a Note are a few kilobytes. */
const INBOX_ANSWER_LIMIT = 1024 * 1024;

/** Says whether an inbox post may go on to Fedify: an HttpError-like refusal (403 for a blocked sender), or undefined. */
export type InboxGate = (ctx: AppContext, request: { headers: Headers; body: Buffer }) => Promise<{ status: number; detail: string } | undefined>;

const FEDIFY_PATHS = /^\/(?:\.well-known\/(?:webfinger|nodeinfo)|nodeinfo\/2\.1|ap\/)/;
const PROFILE_PAGE = /^\/beatnik\/([^/]+)\/?$/;
const ARTICLE_PAGE = /^\/post\/(\d+)\/?$/;
const AP_ARTICLE = /^\/ap\/posts\/(\d+)$/;
/** What an ActivityPub client asks for (DESIGN.md: profile and article pages answer it). */
const ACTIVITY_TYPES = /application\/activity\+json|application\/ld\+json/i;

const PASS = new Response(null, { status: 599 });

export function federationMiddleware(ctx: AppContext, federation: BeatnikFederation, gate?: InboxGate): RequestHandler {
  const origin = ctx.config.publicUrl;
  return async (req, res, next) => {
    try {
      // A profile or article page answers by its Accept: a cache in front keeps the two apart.
      if (PROFILE_PAGE.test(req.path) || ARTICLE_PAGE.test(req.path)) res.vary('Accept');
      const path = await fedifyPathOf(ctx, req);
      if (!path) return next();
      const gone = req.method === 'GET' || req.method === 'HEAD' ? await goneArticle(ctx, federation, path) : undefined;
      if (gone) return void res.status(410).type('application/activity+json').send(gone);
      let body: Buffer | undefined;
      if (req.method === 'POST') {
        body = await readBody(req, INBOX_BODY_LIMIT);
        if (!body) return void res.status(413).json({ detail: 'Request body is too large' });
      }
      const answer = async () => {
        const refusal = body && await gate?.(ctx, { headers: headersOf(req), body });
        if (refusal) return Response.json({ detail: refusal.detail }, { status: refusal.status });
        const request = new Request(new URL(path, origin), {
          method: req.method,
          headers: headersOf(req),
          body: body && body.length > 0 ? new Uint8Array(body) : undefined,
        });
        return federation.fetch(request, {
          contextData: ctx,
          onNotFound: () => PASS,
          onNotAcceptable: () => PASS,
        });
      };
      // What a post makes Fedify fetch (the sender's key, actor, the object it names) is held to
      // a deadline and a size: a server that trickles, or streams gigabytes, fails its own post.
      // A GET fetches nothing elsewhere.
      const response = body === undefined ? await answer() : await guardedRequests({
        publicOnly: !ctx.config.federation.allowPrivateAddress, deadline: AbortSignal.timeout(INBOX_FETCHES_MS), maxAnswerBytes: INBOX_ANSWER_LIMIT,
      }, answer);
      if (response === PASS) return next();
      await send(res, response);
    } catch (err) {
      next(err);
    }
  };
}

/**
 * The Fedify address a request is for: its own path, or, for an ActivityPub client, the actor or
 * article behind a profile or article page; undefined for everything else.
 */
async function fedifyPathOf(ctx: AppContext, req: ExpressRequest): Promise<string | undefined> {
  const path = req.originalUrl;
  const pathname = req.path;
  if (FEDIFY_PATHS.test(pathname)) return path;
  if (req.method !== 'GET' && req.method !== 'HEAD') return undefined;
  if (!ACTIVITY_TYPES.test(req.get('accept') ?? '')) return undefined;
  const profile = PROFILE_PAGE.exec(pathname);
  if (profile) {
    let username: string;
    try {
      username = decodeURIComponent(profile[1]!);
    } catch {
      return undefined;
    }
    const id = await findUserIdByUsernameKey(ctx.db, usernameKey(username));
    return id === undefined ? undefined : `/ap/users/${actorIdentifier(id)}`;
  }
  const article = ARTICLE_PAGE.exec(pathname);
  return article ? `/ap/posts/${article[1]}` : undefined;
}

/** A removed or archived article's Tombstone (DESIGN.md: 410 at its address), when it is one. */
async function goneArticle(ctx: AppContext, federation: BeatnikFederation, path: string): Promise<string | undefined> {
  const match = AP_ARTICLE.exec(path.split('?')[0]!);
  if (!match) return undefined;
  const id = Number(match[1]);
  if (!Number.isSafeInteger(id) || await findFederatedPost(ctx.db, id) || !await postIdWasGiven(ctx.db, id)) return undefined;
  const fed = federation.createContext(new URL(ctx.config.publicUrl), ctx);
  const tombstone = tombstoneOf(fed, id, new Date().toISOString());
  return JSON.stringify(await tombstone.toJsonLd({ contextLoader: fed.contextLoader }));
}

function headersOf(req: ExpressRequest): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  return headers;
}

/** The body, or undefined when it passes `limit` bytes (then the rest is not read). */
function readBody(req: ExpressRequest, limit: number): Promise<Buffer | undefined> {
  const declared = Number(req.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    return Promise.resolve(undefined);
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) over = true;
      else if (!over) chunks.push(chunk);
    });
    req.on('end', () => resolve(over ? undefined : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

async function send(res: ExpressResponse, response: globalThis.Response): Promise<void> {
  res.status(response.status);
  response.headers.forEach((value, name) => {
    res.append(name, value);
  });
  res.end(Buffer.from(await response.arrayBuffer()));
}
