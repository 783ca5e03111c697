// A rendered page's first reads: each answered by the service its API route calls, and kept under
// the address the page's own code asks for it (client/endpoints.ts), as the API would answer a
// visitor: the value, or the status and detail of the refusal. The browser starts from them
// instead of asking (client/page-data.ts).
import type { Call } from '../../client/endpoints.ts';
import type { EmbeddedAnswer } from '../../client/page-data.ts';
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
