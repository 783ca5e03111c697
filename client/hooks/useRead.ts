// A page's read of the API: the answer for a call's address, read again whenever the address
// changes (a filter, another article). On the first render of a page the server rendered, the
// answer is the one it embedded (page-data.ts): no request, and the same HTML as the server's.
// When the signed-in reader's mutes change what lists show (state/mutes.ts), every read is asked
// again: the server answers it without what they muted.
import { useCallback, useContext, useEffect, useState } from 'react';
import { request } from '../api.ts';
import type { Call } from '../endpoints.ts';
import { PageDataContext, embeddedAnswer, type Answer } from '../page-data.ts';
import { useMutesRevision } from '../state/mutes.ts';

export interface Read<R> {
  /** The answer for the current address; undefined until it arrives, or when it failed. */
  value: R | undefined;
  /** Why the current address's read failed (ApiError for an answer with an error status). */
  error: unknown;
  /** Changes the answer shown, after a write this page made. */
  update(change: (value: R) => R): void;
  /** Reads the current address again, showing the answer held meanwhile. */
  reload(): void;
}

interface Held<R> {
  url: string;
  answer?: Answer<R>;
  /** The reload the answer was read for. */
  round: number;
  /** The reader's mutes it was read under. */
  revision: number;
}

/** The server's answer to `call` embedded in the page, as the first render found it: for a list
 * that reads its pages itself (usePagedList.ts). */
export function useEmbeddedValue<R>(call: Call<R>): R | undefined {
  const source = useContext(PageDataContext);
  const [answer] = useState(() => embeddedAnswer(source.current(), call));
  return answer?.ok ? answer.value : undefined;
}

export function useRead<R>(call: Call<R>): Read<R> {
  const source = useContext(PageDataContext);
  const revision = useMutesRevision();
  const [held, setHeld] = useState<Held<R>>(() => ({ url: call.url, answer: embeddedAnswer(source.current(), call), round: 0, revision }));
  const [round, setRound] = useState(0);
  const { url } = call;
  const answered = held.url === url && held.answer !== undefined && held.round === round && held.revision === revision;

  useEffect(() => {
    if (answered) return;
    let live = true;
    const keep = (answer: Answer<R>) => { if (live) setHeld({ url, answer, round, revision }); };
    request(call).then((value) => keep({ ok: true, value }), (error: unknown) => keep({ ok: false, error }));
    return () => { live = false; };
    // The address stands for the call: a new call object for the same address is the same read.
  }, [url, round, revision]);

  const current = held.url === url ? held.answer : undefined;
  const update = useCallback((change: (value: R) => R) => {
    setHeld((h) => (h.answer?.ok ? { ...h, answer: { ok: true, value: change(h.answer.value) } } : h));
  }, []);
  const reload = useCallback(() => setRound((n) => n + 1), []);
  return { value: current?.ok ? current.value : undefined, error: current && !current.ok ? current.error : undefined, update, reload };
}
