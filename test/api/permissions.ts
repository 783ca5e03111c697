// Permission checks as scenario tables (STYLE.md, Tests): one row per endpoint and actor,
// `{name, method, url, body?, arrange?, as, expectedStatus, expectedDetail?}`, each run over HTTP
// against the real app with fresh data. A refused row must leave the database and the uploads
// exactly as they were; an accepted write must change them.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Kysely } from 'kysely';
import { banInDatabase, createAdmin, createUser, startTestServer, type TestServer, type TestUser } from '../helpers.ts';

export const ACTORS = ['anonymous', 'user', 'owner', 'admin', 'temporarily banned', 'permanently banned'] as const;
export type Actor = (typeof ACTORS)[number];

/**
 * Who takes part in a row. `owner` is made for the row and owns its data (the article, the
 * comment, the notification, the followed or moderated account); the two banned actors are that
 * owner, banned once the data is made: a ban outranks ownership. `user` and `admin` are neither.
 */
export interface Cast {
  server: TestServer;
  owner: TestUser;
  user: TestUser;
  admin: TestUser;
}

export interface Scenario<F> {
  name: string;
  method: string;
  url: (fixture: F) => string;
  /** A JSON value, or FormData for a multipart form. */
  body?: (fixture: F) => unknown;
  /** Makes the row's data, through the API where it can. */
  arrange?: (cast: Cast) => Promise<F>;
  as: Actor;
  expectedStatus: number;
  expectedDetail?: string | RegExp;
}

export type Endpoint<F> = Omit<Scenario<F>, 'as' | 'expectedStatus' | 'expectedDetail'>;
type Outcome = number | [status: number, detail: string | RegExp];

export const SIGN_IN: Outcome = [401, 'Not authenticated'];
export const ADMINS_ONLY: Outcome = [403, 'Admin privileges required'];
const TEMPORARY_BAN = /^Your account is banned until \d{1,2} [A-Z][a-z]+ \d{4}, \d\d:\d\d UTC\. Reason: cooling off$/;
const PERMANENT_BAN = 'Your account has been permanently banned. Reason: spam';

/**
 * The six rows of one endpoint. Banned actors get the 403 with their ban sentence unless told
 * otherwise (endpoints open to visitors treat a banned token as a visitor).
 */
export function scenarios<F>(
  endpoint: Endpoint<F>,
  outcomes: Record<'anonymous' | 'user' | 'owner' | 'admin', Outcome> & Partial<Record<Actor, Outcome>>,
): Scenario<F>[] {
  const all: Record<Actor, Outcome> = {
    'temporarily banned': [403, TEMPORARY_BAN], 'permanently banned': [403, PERMANENT_BAN], ...outcomes,
  };
  return ACTORS.map((as) => {
    const outcome = all[as];
    const [expectedStatus, expectedDetail] = typeof outcome === 'number' ? [outcome, undefined] : outcome;
    return { ...endpoint, as, expectedStatus, expectedDetail };
  });
}

/** Every row of every table in `title`, on one server of its own (started with `options`: federation on, say). */
export function permissionSuite(title: string, rows: Scenario<any>[], options?: Parameters<typeof startTestServer>[0]): void {
  describe(title, () => {
    let server: TestServer;
    let user: TestUser;
    let admin: TestUser;
    before(async () => {
      server = await startTestServer(options);
      user = await createUser(server);
      admin = await createAdmin(server);
    });
    after(async () => { await server.stop(); });

    for (const row of rows) {
      test(`${row.name} (${row.method}) as ${row.as} → ${row.expectedStatus}`, async () => {
        const cast: Cast = { server, owner: await createUser(server), user, admin };
        const fixture = await row.arrange?.(cast);
        if (row.as === 'temporarily banned') await banInDatabase(server, cast.owner.id, { permanent: false, days: 3, reason: 'cooling off' });
        if (row.as === 'permanently banned') await banInDatabase(server, cast.owner.id, { permanent: true, reason: 'spam' });
        const actor = { anonymous: undefined, user, owner: cast.owner, admin, 'temporarily banned': cast.owner, 'permanently banned': cast.owner }[row.as];

        const before = await snapshot(server);
        const body = row.body?.(fixture);
        const res = await server.api(row.method, row.url(fixture), {
          token: actor?.token, ...(body instanceof FormData ? { body } : { json: body }),
        });
        assert.equal(res.status, row.expectedStatus, JSON.stringify(res.body));
        if (typeof row.expectedDetail === 'string') assert.deepEqual(res.body, { detail: row.expectedDetail });
        else if (row.expectedDetail) assert.match(res.body.detail, row.expectedDetail);

        const after = await snapshot(server);
        const changed = Object.keys(after).filter((part) => after[part] !== before[part]);
        if (res.status >= 400) assert.deepEqual(changed, [], `refused, yet it changed ${changed.join(', ')}`);
        else if (row.method !== 'GET') assert.ok(changed.length > 0, 'accepted, yet nothing was stored');
      });
    }
  });
}

/** Every table's rows and the uploaded files, by name: all a request could have changed. */
export async function snapshot(server: TestServer): Promise<Record<string, string>> {
  const db = server.ctx.db as unknown as Kysely<any>;
  const tables = (await db.introspection.getTables()).filter((t) => !t.isView).map((t) => t.name);
  const parts: Record<string, string> = { uploads: readdirSync(path.join(server.dataDir, 'uploads')).sort().join('\n') };
  for (const name of tables) parts[name] = JSON.stringify(await db.selectFrom(name).selectAll().execute());
  return parts;
}
