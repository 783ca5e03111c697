// No request to a private address, ever (DESIGN.md, The fediverse). Fedify checks the documents
// it fetches itself (actors, keys: its document loader refuses private addresses and redirects to
// them), but not the inbox a delivery POSTs to, nor where that inbox redirects: its sendActivity
// calls fetch as it is and follows a redirect without a check. So a delivery is checked here with
// Fedify's own rule (validatePublicUrl: every address the host resolves to must be public), before
// it starts and on every request made while it runs.
import { AsyncLocalStorage } from 'node:async_hooks';
import { validatePublicUrl } from '@fedify/fedify';

/**
 * Why a request to `url` would reach a private or loopback address; undefined when it would not.
 * A host that does not resolve now is no refusal: the request fails by itself, and is retried.
 */
export async function privateAddressRefusal(url: URL): Promise<string | undefined> {
  try {
    await validatePublicUrl(url.href);
    return undefined;
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    return reason.startsWith('DNS lookup failed') ? undefined : `${url.host}: ${reason}`;
  }
}

/** A delivery or an inbox post under way: what the requests it makes are held to, and the first of them that was refused. */
export interface RequestScope {
  /** Only public addresses (off only with FEDERATION_ALLOW_PRIVATE, in tests). */
  publicOnly: boolean;
  /** Every request it makes fails once this aborts (the delivery's deadline). */
  deadline: AbortSignal;
  /** An answer longer than this fails as it is read (Fedify reads whole documents into memory). */
  maxAnswerBytes?: number;
  refusal?: string;
}

const scopes = new AsyncLocalStorage<RequestScope>();
let guardInstalled = false;

/**
 * Runs `run` (a delivery: Fedify signing and sending) so that every request it makes, redirects
 * included, goes to public addresses only (when `scope.publicOnly`): one to a private address
 * fails before it connects, and `scope.refusal` says why. None outlives `scope.deadline`: Fedify
 * sets no time limit of its own, and a server that takes the connection and never answers would
 * hold its delivery, and its runner's place, for minutes. Requests made outside such a run are
 * left as they are.
 */
export function guardedRequests<T>(scope: RequestScope, run: () => Promise<T>): Promise<T> {
  if (!guardInstalled) {
    guardInstalled = true;
    const unguarded = globalThis.fetch;
    globalThis.fetch = async (input, init) => {
      const current = scopes.getStore();
      if (!current) return unguarded(input, init);
      if (current.publicOnly) {
        const refusal = await privateAddressRefusal(new URL(input instanceof Request ? input.url : String(input)));
        if (refusal) {
          current.refusal ??= refusal;
          throw new TypeError(`Refused: ${refusal}`);
        }
      }
      const signal = init?.signal ? AbortSignal.any([init.signal, current.deadline]) : current.deadline;
      const response = await unguarded(input, { ...init, signal });
      return current.maxAnswerBytes === undefined ? response : capped(response, current.maxAnswerBytes);
    };
  }
  return scopes.run(scope, run);
}

/** The response, its body failing once past `max` bytes (at once when its Content-Length says so). */
function capped(response: Response, max: number): Response {
  const tooLong = () => new TypeError(`${new URL(response.url || 'about:blank').host || 'a server'} answered more than ${max} bytes`);
  if (Number(response.headers.get('content-length') ?? 0) > max) {
    void response.body?.cancel();
    throw tooLong();
  }
  if (!response.body) return response;
  let read = 0;
  const body = response.body.pipeThrough(new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      read += chunk.byteLength;
      if (read > max) controller.error(tooLong());
      else controller.enqueue(chunk);
    },
  }));
  const copy = new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  // Fedify's document loader reads where the document came from (after redirects) off the response.
  Object.defineProperties(copy, { url: { value: response.url }, redirected: { value: response.redirected } });
  return copy;
}
