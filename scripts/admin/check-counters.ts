// check-counters: recount every stored counter (posts, followers, ratings, comments, visits,
// mojo, hashtags) from the base tables and report any that disagree. Reads only.
import { findCounterDrift } from '../../server/maintenance/counters.ts';
import { CommandFailure, type Command } from './cli.ts';

export const checkCountersCommand: Command<null> = {
  name: 'check-counters',
  usage: 'check-counters',
  summary: 'Recount every counter from the base tables; exit 1 if any disagrees.',
  example: 'npm run admin -- check-counters',
  parse: () => null,
  async run(ctx, _args, out) {
    const drift = await findCounterDrift(ctx.db);
    if (drift.length > 0) {
      for (const line of drift.slice(0, 50)) out.line(line);
      throw new CommandFailure(`${drift.length} ${drift.length === 1 ? 'counter disagrees' : 'counters disagree'} with the base tables`);
    }
    out.line('All counters agree with the base tables');
  },
};
