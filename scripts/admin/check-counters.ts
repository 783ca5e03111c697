// check-counters: recount every stored counter (posts, followers, ratings, comments, visits,
// mojo and its ledger, hashtags) from the base tables and report any that disagree. Reads only,
// unless --repair: then users' counters and mojo are set to the counted figures and every mojo
// ledger that does not add up gets a visible `recompute` event with the correcting delta.
import { findCounterDrift, repairUserCounters } from '../../server/maintenance/counters.ts';
import { CommandFailure, type Command } from './cli.ts';

export const checkCountersCommand: Command<{ repair: boolean }> = {
  name: 'check-counters',
  usage: 'check-counters [--repair]',
  summary: 'Recount every counter from the base tables; exit 1 if any disagrees (--repair fixes users\' counters, mojo and its ledger).',
  details: [
    'Also checks that each user\'s mojo ledger adds up to their stored mojo. With --repair, every',
    'user\'s counters and mojo are set to the counted figures, and each ledger that does not add',
    'up gets a `recompute` event by the difference, shown on the profile. Articles\', hashtags\'',
    'and the search index\'s drift is reported, not repaired.',
  ],
  example: 'npm run admin -- check-counters',
  options: { repair: { type: 'boolean' } },
  parse: ({ values }) => ({ repair: values.repair === true }),
  async run(ctx, { repair }, out) {
    if (repair) {
      const repaired = await repairUserCounters(ctx.db);
      out.line(`Repaired the counters of ${repaired.users} ${repaired.users === 1 ? 'user' : 'users'}; `
        + `wrote ${repaired.events} recompute ${repaired.events === 1 ? 'event' : 'events'} to the mojo ledger`);
    }
    const drift = await findCounterDrift(ctx.db);
    if (drift.length > 0) {
      for (const line of drift.slice(0, 50)) out.line(line);
      throw new CommandFailure(`${drift.length} ${drift.length === 1 ? 'counter disagrees' : 'counters disagree'} with the base tables`);
    }
    out.line('All counters agree with the base tables');
  },
};
