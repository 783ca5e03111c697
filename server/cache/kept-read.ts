// A value many requests read alike (an article's side list of The Pulse, the site's settings),
// kept in the read cache as the lists are: emptied by every write, on every instance, and 5 s at
// most. The value is shared by whoever takes it, who must not change it.
import type { AppContext } from '../context.ts';

export async function keptRead<T>(ctx: Pick<AppContext, 'readCache'>, key: string, load: () => Promise<T>): Promise<T> {
  const kept = ctx.readCache?.lookup(key);
  if (kept) return kept.memo as T;
  const mark = ctx.readCache?.mark() ?? Number.NaN;
  const value = await load();
  ctx.readCache?.store(key, mark, Buffer.from(JSON.stringify(value)), 'application/json; charset=utf-8', value);
  return value;
}
