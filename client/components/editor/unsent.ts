// Nothing typed is lost (DESIGN.md, Writing): what a form holds and has not sent is kept in the
// browser, per signed-in user and per form (a new article, article N's edit, a comment on article
// N, comment N's edit), and offered back after a reload, a crash or a failed send — or a send that
// met an expired session, once the writer has signed in again. Cleared when sent or discarded.
import { useCallback, useEffect, useRef, useState } from 'react';

const PREFIX = 'beatnik.unsent';
/** How long typing waits before it is written down (and at once when the page goes away). */
const SAVE_DELAY_MS = 400;

export interface UnsentCopy<F> {
  fields: F;
  /** When it was last kept (ISO 8601). */
  savedAt: string;
}

/** The form a copy belongs to: 'article:new', 'article:12', 'comment:on:12', 'comment:5'. */
export function unsentKey(userId: number, form: string): string {
  return `${PREFIX}.${userId}.${form}`;
}

export function readUnsent<F>(key: string): UnsentCopy<F> | undefined {
  try {
    const stored = localStorage.getItem(key);
    if (!stored) return undefined;
    const copy = JSON.parse(stored) as UnsentCopy<F>;
    return copy && typeof copy === 'object' && 'fields' in copy && typeof copy.savedAt === 'string' ? copy : undefined;
  } catch {
    return undefined; // storage disabled, or a copy nobody can read: nothing to offer
  }
}

function keep<F>(key: string, fields: F): void {
  try {
    localStorage.setItem(key, JSON.stringify({ fields, savedAt: new Date().toISOString() } satisfies UnsentCopy<F>));
  } catch {
    // storage full or disabled: the form still works, it just cannot keep a copy
  }
}

export function forgetUnsent(key: string): void {
  try {
    localStorage.removeItem(key);
  } catch {
    // nothing kept anyway
  }
}

export interface Unsent<F> {
  /** A copy from before, different from what the form started with: to offer back. */
  offer: UnsentCopy<F> | undefined;
  /** Takes the offer (the caller puts its fields in the form). */
  accept(): F | undefined;
  /** Throws the offered copy away. */
  discard(): void;
  /** After a successful send: nothing is unsent any more. */
  sent(): void;
}

/**
 * Keeps `fields` under `key` while they differ from `initial`, and offers back a copy left from
 * before. Until an offer is taken or discarded, the copy it offers is left as it is. Without a key
 * (nobody signed in) nothing is kept. `initial` and `same` must keep their identity across renders.
 * With `putBack` (a form that opens empty, so it loses nothing), the copy is not offered but handed
 * to it at once as the form opens.
 */
export function useUnsent<F>(
  key: string | undefined, fields: F, initial: F, same: (a: F, b: F) => boolean,
  putBack?: (fields: F, savedAt: string) => void,
): Unsent<F> {
  const [offer, setOffer] = useState<UnsentCopy<F> | undefined>(() => {
    const copy = key ? readUnsent<F>(key) : undefined;
    return copy && !same(copy.fields, initial) ? copy : undefined;
  });
  const pending = useRef<{ key: string; fields: F } | undefined>(undefined);

  const flush = useCallback(() => {
    if (!pending.current) return;
    keep(pending.current.key, pending.current.fields);
    pending.current = undefined;
  }, []);

  useEffect(() => {
    if (!key || offer) return;
    if (same(fields, initial)) {
      pending.current = undefined;
      forgetUnsent(key);
      return;
    }
    pending.current = { key, fields };
    const timer = setTimeout(flush, SAVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [key, fields, initial, offer, same, flush]);

  useEffect(() => {
    if (!putBack || !offer) return;
    setOffer(undefined);
    putBack(offer.fields, offer.savedAt);
    // Once, as the form opens.
  }, []);

  // A reload or a closed tab does not wait for the delay.
  useEffect(() => {
    window.addEventListener('pagehide', flush);
    return () => {
      window.removeEventListener('pagehide', flush);
      flush();
    };
  }, [flush]);

  return {
    offer,
    accept() {
      setOffer(undefined);
      return offer?.fields;
    },
    discard() {
      if (key) forgetUnsent(key);
      setOffer(undefined);
    },
    sent() {
      pending.current = undefined;
      if (key) forgetUnsent(key);
    },
  };
}
