// The visits this process counted lately, remembered so that a re-read within the visit window
// is known without asking the database. A memory of what the database said, never instead of
// it: a visit it does not hold (a new reader, another instance's, one from before a restart) is
// checked where it is written (posts.read.repo.ts, recordVisit).
import type { DB } from '../schema.ts';

/** Visits remembered at most per database: a few megabytes; the oldest go first. */
const MAX_REMEMBERED = 50_000;

export interface RecentVisits {
  /** Whether this visitor's visit to the post was counted after `cutoffMs`, as far as is known here. */
  countedSince(postId: number, visitor: string, cutoffMs: number): boolean;
  /** The visitor's visit to the post was counted at `atMs`. */
  remember(postId: number, visitor: string, atMs: number): void;
  /** Forgets every visit of this visitor (an account removed). */
  forgetVisitor(visitor: string): void;
  /** Forgets every visit: the database answers for them again (tests that move time on). */
  forgetAll(): void;
}

/** One memory per database: tests run many apps in one process, each with its own. */
const memories = new WeakMap<DB, RecentVisits>();

export function recentVisitsOf(db: DB): RecentVisits {
  let memory = memories.get(db);
  if (!memory) {
    memory = createRecentVisits(MAX_REMEMBERED);
    memories.set(db, memory);
  }
  return memory;
}

export function createRecentVisits(maxRemembered: number): RecentVisits {
  // Kept in the order the visits were counted (a counted visit moves to the end), so the oldest
  // is the first key.
  const countedAt = new Map<string, number>();
  const keyOf = (postId: number, visitor: string) => `${postId} ${visitor}`;
  return {
    countedSince(postId, visitor, cutoffMs) {
      const at = countedAt.get(keyOf(postId, visitor));
      return at !== undefined && at >= cutoffMs;
    },
    remember(postId, visitor, atMs) {
      const key = keyOf(postId, visitor);
      countedAt.delete(key);
      countedAt.set(key, atMs);
      if (countedAt.size > maxRemembered) countedAt.delete(countedAt.keys().next().value!);
    },
    forgetVisitor(visitor) {
      const suffix = ` ${visitor}`;
      for (const key of countedAt.keys()) if (key.endsWith(suffix)) countedAt.delete(key);
    },
    forgetAll() {
      countedAt.clear();
    },
  };
}
