// The admin's Fediverse tab (DESIGN.md, Moderation): who follows the site's authors from elsewhere,
// the latest deliveries and how they went, and the deliveries failing (retried, or given up after
// three days). A failure names where it was going, never its payload (which holds signing keys).
import type { AppContext } from '../context.ts';
import type { Page } from '../http.ts';
import type { JobState } from '../schema.ts';
import { uploadUrl } from '../uploads.ts';
import {
  countAllRemoteFollowers, countDeliveries, countRetriedDeliveries, findUsernames, listAllRemoteFollowers, listDeliveries,
  listRetriedDeliveries, type RetriedJobRow,
} from './federation-admin.repo.ts';
import type { OutgoingActivity } from '../federation-outgoing/federation-outgoing.service.ts';
import { FEDIFY_JOB } from './message-queue.ts';

export interface AdminRemoteFollower {
  /** `@user@server` */
  handle: string;
  name: string;
  /** Its profile page, or its actor id. */
  url: string;
  avatar: string | null;
  /** The local user it follows. */
  follows: string;
  created_at: string;
}

export interface FederationDelivery {
  id: number;
  at: string;
  inbox: string;
  domain: string;
  activity_type: string;
  ok: boolean;
  /** Why it failed: the remote answer or the network's error; `blocked` for a blocked server's. */
  error: string | null;
}

export interface FederationFailure {
  id: number;
  /** `federation.send` (an activity to build and address) or `federation.fedify` (one delivery). */
  kind: string;
  /** `pending`: to be tried again at run_at; `failed`: given up. */
  state: Extract<JobState, 'pending' | 'failed'>;
  activity_type: string | null;
  /** Where it goes: an inbox, some inboxes, or a local user's followers. */
  target: string;
  last_error: string | null;
  attempts: number;
  run_at: string;
}

export interface FederationOverview {
  remote_followers: AdminRemoteFollower[];
  remote_followers_total: number;
  deliveries: FederationDelivery[];
  deliveries_total: number;
  failures: FederationFailure[];
  failures_total: number;
}

export interface OverviewPages {
  followers: Page;
  deliveries: Page;
  failures: Page;
}

export async function federationOverview(ctx: AppContext, pages: OverviewPages): Promise<FederationOverview> {
  const [followers, followersTotal, deliveries, deliveriesTotal, jobs, failuresTotal] = await Promise.all([
    listAllRemoteFollowers(ctx.db, pages.followers), countAllRemoteFollowers(ctx.db),
    listDeliveries(ctx.db, pages.deliveries), countDeliveries(ctx.db),
    listRetriedDeliveries(ctx.db, pages.failures), countRetriedDeliveries(ctx.db),
  ]);
  const payloads = jobs.map((job) => parsed(job.payload));
  const senders = await findUsernames(ctx.db, [...new Set(payloads.map(senderOf).filter((id): id is number => id !== undefined))]);
  return {
    remote_followers: followers.map((row) => ({
      handle: `@${row.handle}`, name: row.name, url: row.url, avatar: uploadUrl(row.avatar), follows: row.follows, created_at: row.created_at,
    })),
    remote_followers_total: followersTotal,
    deliveries: deliveries.map((row) => ({ ...row, ok: row.ok === 1 })),
    deliveries_total: deliveriesTotal,
    failures: jobs.map((job, i) => failureOf(job, payloads[i], senders)),
    failures_total: failuresTotal,
  };
}

function parsed(payload: string): any {
  try {
    return JSON.parse(payload);
  } catch {
    return undefined;
  }
}

function senderOf(payload: any): number | undefined {
  const activity = payload as Partial<OutgoingActivity> | undefined;
  const id = activity?.type === 'article' ? activity.authorId : activity?.type === 'profile' || activity?.type === 'accept' ? activity.userId : undefined;
  return typeof id === 'number' ? id : undefined;
}

function failureOf(job: RetriedJobRow, payload: any, senders: Map<number, string>): FederationFailure {
  const common = { id: job.id, kind: job.kind, state: job.state as FederationFailure['state'], last_error: job.last_error, attempts: job.attempts, run_at: job.run_at };
  if (job.kind === FEDIFY_JOB) {
    const inboxes = payload?.type === 'fanout' && payload.inboxes && typeof payload.inboxes === 'object' ? Object.keys(payload.inboxes) : [];
    const target = payload?.type === 'outbox' ? String(payload.inbox) : inboxes.length > 0 ? inboxesText(inboxes) : String(payload?.type ?? 'message');
    return { ...common, activity_type: typeof payload?.activityType === 'string' ? shortType(payload.activityType) : null, target };
  }
  const activity = payload as OutgoingActivity | undefined;
  const sender = senders.get(senderOf(payload) ?? 0) ?? 'a removed account';
  switch (activity?.type) {
    case 'article': return { ...common, activity_type: ARTICLE_TYPES[activity.event] ?? null, target: `${sender}'s followers (article ${activity.postId})` };
    case 'profile': return { ...common, activity_type: 'Update', target: `${sender}'s followers (profile)` };
    case 'accept': return { ...common, activity_type: 'Accept', target: String(activity.actorUri) };
    case 'account': return { ...common, activity_type: 'Delete', target: `the followers of a removed account (${activity.followers.length}; ${activity.postIds.length} articles)` };
    default: return { ...common, activity_type: null, target: job.kind };
  }
}

const ARTICLE_TYPES: Record<string, string> = { create: 'Create', update: 'Update', delete: 'Delete' };

function shortType(type: string): string {
  return type.replace(/^https:\/\/www\.w3\.org\/ns\/activitystreams#/, '');
}

/** '3 inboxes: a.example, b.example' */
function inboxesText(inboxes: string[]): string {
  const hosts = [...new Set(inboxes.map((inbox) => {
    try {
      return new URL(inbox).host;
    } catch {
      return inbox;
    }
  }))];
  const shown = hosts.slice(0, 5).join(', ');
  return `${inboxes.length} ${inboxes.length === 1 ? 'inbox' : 'inboxes'}: ${shown}${hosts.length > 5 ? ', …' : ''}`;
}
