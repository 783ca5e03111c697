// What every feature is given: configuration, database and logger, created once at start.
import type { Config } from './config.ts';
import type { Logger } from './log.ts';
import type { DB, JobRow, UserRow } from './schema.ts';
import type { HttpError } from './errors.ts';
import type { TokenClaims } from './auth/tokens.ts';
import type { ReadCache } from './cache/read-cache.ts';
import type { ImageStore } from './images/image-store.ts';
import type { Metrics } from './metrics/metrics.registry.ts';
import type { RequestHandler } from 'express';

export interface AppContext {
  readonly config: Config;
  readonly db: DB;
  readonly log: Logger;
  /** Where images are kept: DATA_DIR/uploads or an S3 bucket (images/open-store.ts). */
  readonly images: ImageStore;
  /** Public list responses cached by the server; absent in the CLI. */
  readonly readCache?: ReadCache;
  /** This server's Prometheus registry (metrics/), when METRICS_TOKEN is set; absent otherwise and in the CLI. */
  readonly metrics?: Metrics;
  /** ActivityPub through Fedify, when FEDERATION is on (federation/); absent otherwise and in the CLI. */
  readonly federation?: FederationService;
}

/**
 * What the bearer token on a request turned out to be (see session.ts); `token`, the claims of a
 * live session (a banned user's too), is what signing out ends.
 */
export type AuthState = ({ user: UserRow } | { error: HttpError }) & {
  token?: TokenClaims;
  /** ADMIN_2FA=required and this admin has no two-factor sign-in: `user` is then a member (no admin
   * power anywhere), the admin tools say why, and `account` is the account as stored. */
  adminNeedsTwoFactor?: boolean;
  account?: UserRow;
};

/**
 * ActivityPub as the server runs it (federation/federation.service.ts), declared here so that
 * every feature may be handed it without depending on Fedify.
 */
export interface FederationService {
  /** Fedify's addresses, and the ActivityPub answers of the profile and article pages. */
  routes(): RequestHandler;
  /** The jobs the federation runs (server/background.ts), by kind. */
  readonly jobHandlers: Readonly<Record<string, (payload: any, job: JobRow) => Promise<void>>>;
  /** Starts handing Fedify its queued messages, on the instance that leads; returns the stop. */
  startQueue(): () => void;
}

declare module 'express-serve-static-core' {
  interface Request {
    /** A per-request id, echoed in X-Request-Id and in logs. */
    id: string;
    auth?: AuthState;
    /**
     * The signed-in reader whose mutes this public list must leave out (mutes/mutes.readers.ts):
     * the read cache neither answers nor keeps it.
     */
    mutedBy?: number;
  }
}
