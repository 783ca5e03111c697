// What every feature is given: configuration, database and logger, created once at start.
import type { Config } from './config.ts';
import type { Logger } from './log.ts';
import type { DB, UserRow } from './schema.ts';
import type { HttpError } from './errors.ts';
import type { TokenClaims } from './auth/tokens.ts';
import type { ReadCache } from './cache/read-cache.ts';
import type { ImageStore } from './images/image-store.ts';
import type { Metrics } from './metrics/metrics.registry.ts';

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
}

/**
 * What the bearer token on a request turned out to be (see session.ts); `token`, the claims of a
 * live session (a banned user's too), is what signing out ends.
 */
export type AuthState = ({ user: UserRow } | { error: HttpError }) & {
  token?: TokenClaims;
  /** ADMIN_2FA=required and this user has no two-factor sign-in: the admin tools refuse them. */
  adminNeedsTwoFactor?: boolean;
};

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
