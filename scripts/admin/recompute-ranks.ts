// recompute-ranks: the ranking refresh the server runs every RANK_REFRESH_HOURS, now.
import { recomputeRanks } from '../../server/ranks/ranks.service.ts';
import type { Command } from './cli.ts';

export const recomputeRanksCommand: Command<null> = {
  name: 'recompute-ranks',
  usage: 'recompute-ranks',
  summary: 'Recompute every active post\'s ranking score now.',
  example: 'npm run admin -- recompute-ranks',
  parse: () => null,
  async run(ctx, _args, out) {
    const result = await recomputeRanks(ctx.db);
    out.line(`Recomputed ranks for ${result.posts} post${result.posts === 1 ? '' : 's'} in ${result.ms} ms`);
  },
};
