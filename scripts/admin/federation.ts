// federation-queue [--retry ID | --retry-all]: the fediverse deliveries waiting to go and those
// given up on, each with where it goes and its last error, and puts failed ones back in the queue
// (DESIGN.md, The fediverse: Sending; the server's jobs runner sends them); the copies of remote
// authors' pictures to make (federation.avatar) with them.
import { FEDERATION_JOB_KINDS } from '../../server/background.ts';
import { listJobs, retryFailedJobs } from '../../server/jobs/jobs.service.ts';
import type { JobRow } from '../../server/schema.ts';
import { CommandFailure, UsageError, type Command } from './cli.ts';

export const federationQueueCommand: Command<{ retry?: number | 'all' }> = {
  name: 'federation-queue',
  usage: 'federation-queue [--retry ID | --retry-all]',
  summary: 'List the fediverse deliveries waiting to be sent and those given up on; put failed ones back in the queue.',
  details: [
    'A delivery is tried again a minute after a failure, then at doubling intervals up to twelve hours,',
    'and given up after three days; one refused (a private address) or whose inbox is gone at once.',
    'A server that keeps failing is paused: its deliveries wait. --retry ID (or --retry-all) queues',
    'failed ones again now.',
  ],
  example: 'npm run admin -- federation-queue',
  options: { retry: { type: 'string' }, 'retry-all': { type: 'boolean' } },
  parse: ({ values }) => {
    if (values['retry-all'] === true) return { retry: 'all' };
    if (values.retry === undefined) return {};
    if (typeof values.retry !== 'string' || !/^[1-9]\d*$/.test(values.retry)) throw new UsageError('--retry needs a job id (from federation-queue)');
    return { retry: Number(values.retry) };
  },
  async run(ctx, { retry }, out) {
    if (retry !== undefined) {
      const count = await retryFailedJobs(ctx.db, FEDERATION_JOB_KINDS, retry === 'all' ? undefined : retry);
      if (count === 0) throw new CommandFailure(retry === 'all' ? 'No failed delivery to retry' : `No failed delivery with id ${retry}`);
      out.line(`${count} ${count === 1 ? 'delivery' : 'deliveries'} queued again`);
      return;
    }
    const jobs = await listJobs(ctx.db, FEDERATION_JOB_KINDS, ['pending', 'running', 'failed']);
    const failed = jobs.filter((job) => job.state === 'failed');
    out.line(`${jobs.length - failed.length} waiting, ${failed.length} failed`);
    for (const job of jobs) out.line(describe(job));
  },
};

/** An ActivityStreams type without its namespace: `Create`. */
const typeName = (type: unknown) => String(type ?? 'Activity').replace(/^https:\/\/www\.w3\.org\/ns\/activitystreams#/, '');

/** What a job sends and where, from its payload (never its keys). */
function target(job: JobRow): string {
  const payload = JSON.parse(job.payload) as Record<string, any>;
  if (job.kind === 'federation.fedify') {
    if (payload.type === 'outbox') return `${typeName(payload.activityType)} to ${payload.inbox}`;
    if (payload.type === 'fanout') return `${typeName(payload.activityType)} to ${Object.keys(payload.inboxes ?? {}).length} inboxes (fan-out)`;
    return `${payload.type ?? 'message'}`;
  }
  if (job.kind === 'federation.avatar') return `copy of remote actor #${payload.actorId}'s picture from ${payload.url ?? '(none: the copy removed)'}`;
  switch (payload.type) {
    case 'article': return `${payload.event} article #${payload.postId} for the followers of user #${payload.authorId}`;
    case 'profile': return `profile of user #${payload.userId} for their followers`;
    case 'accept': return `accept of ${payload.actorUri}'s follow of user #${payload.userId}`;
    case 'account': return `deletion of user #${payload.userId} and ${payload.postIds?.length ?? 0} articles for ${payload.followers?.length ?? 0} followers`;
    default: return String(payload.type ?? 'activity');
  }
}

function describe(job: JobRow): string {
  const when = job.state === 'failed' ? 'failed' : job.state === 'running' ? 'sending' : `next try ${job.run_at}`;
  const why = job.last_error ? ` (${job.attempts} ${job.attempts === 1 ? 'try' : 'tries'}; last: ${job.last_error.split('\n')[0]})` : '';
  return `#${job.id} ${when}, queued ${job.created_at}, ${job.kind}: ${target(job)}${why}`;
}
