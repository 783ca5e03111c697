// A rendered page's first reads: each answered by the service its API route calls, and kept under
// the address the page's own code asks for it (client/endpoints.ts), as the API would answer a
// visitor: the value, or the status and detail of the refusal. The browser starts from them
// instead of asking (client/page-data.ts).
import type { Call } from '../../client/endpoints.ts';
import type { EmbeddedAnswer } from '../../client/page-data.ts';
import type { AppContext } from '../context.ts';
import { HttpError } from '../errors.ts';

export type Answers = Record<string, EmbeddedAnswer>;

export interface PageReads {
  answers: Answers;
  /** Answers `call` with what `answer` resolves to; undefined when it refused (the 404 of a missing article). */
  read<R>(call: Call<R>, answer: () => Promise<R>): Promise<R | undefined>;
}

export function pageReads(): PageReads {
  const answers: Answers = {};
  return {
    answers,
    async read(call, answer) {
      try {
        const value = await answer();
        answers[call.url] = { status: 200, body: value };
        return value;
      } catch (err) {
        if (!(err instanceof HttpError)) throw err;
        answers[call.url] = { status: err.status, body: { detail: err.detail } };
        return undefined;
      }
    },
  };
}

/**
 * A read that many pages make alike (an article's side list of The Pulse), kept in the read cache
 * as the lists are: emptied by every write, 5 s at most. The value is shared by the pages that
 * take it, which only serialize and render it.
 */
export async function keptRead<T>(ctx: Pick<AppContext, 'readCache'>, key: string, load: () => Promise<T>): Promise<T> {
  const kept = ctx.readCache?.lookup(key);
  if (kept) return kept.memo as T;
  const mark = ctx.readCache?.mark() ?? Number.NaN;
  const value = await load();
  ctx.readCache?.store(key, mark, Buffer.from(JSON.stringify(value)), 'application/json; charset=utf-8', value);
  return value;
}
