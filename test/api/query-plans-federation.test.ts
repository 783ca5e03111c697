// The federation's admin lists and the inbox's block check are index-backed, as query-plans.test.ts
// asks of every list (its rules, on a server with federation on): the Fediverse tab's three lists
// and the blocks walk their indexes in order, never sorting every row; the check each inbox post
// makes, and an account's block, find their rows by key.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { CompiledQuery } from 'kysely';
import { blockOfSender } from '../../server/federation/federation.blocks.ts';
import { createAdmin, createUser, sqlRows, startTestServer, type TestServer, type TestUser } from '../helpers.ts';
import { explain, type ExplainOptions, type PlanStep, type QueryPlan } from '../query-plan.ts';

let server: TestServer;
let admin: TestUser;
const captured: CompiledQuery[] = [];

before(async () => {
  server = await startTestServer({ env: { FEDERATION: 'on', PUBLIC_URL: 'https://paper.test', FEDERATION_ALLOW_PRIVATE: 'true' } });
  admin = await createAdmin(server);
  const author = await createUser(server);
  const now = new Date().toISOString();
  const { id } = await server.ctx.db.insertInto('remote_actors').values({
    uri: 'https://far.example/users/fan', handle: 'fan@far.example', domain: 'far.example', inbox: 'https://far.example/users/fan/inbox', updated_at: now,
  }).returning('id').executeTakeFirstOrThrow();
  await server.ctx.db.insertInto('remote_followers').values({ user_id: author.id, actor_id: id, created_at: now }).execute();
  await server.ctx.db.insertInto('federation_deliveries').values({ at: now, inbox: 'https://far.example/inbox', domain: 'far.example', activity_type: 'Create', ok: 1 }).execute();
  await server.ctx.db.insertInto('federation_blocks').values({ target: 'spam.example', created_by: admin.id, created_at: now }).execute();
  await server.ctx.db.insertInto('jobs').values({
    kind: 'federation.fedify', queue: 'federation', payload: '{}', state: 'failed', run_at: now, attempts: 3, created_at: now,
  }).execute();
  const executor = server.ctx.db.getExecutor();
  (server.ctx as { db: unknown }).db = server.ctx.db.withPlugin({
    transformQuery(args) {
      captured.push(executor.compileQuery(args.node, args.queryId));
      return args.node;
    },
    transformResult: async (args) => args.result,
  });
});
after(async () => { await server.stop(); });

const bindable = (value: unknown) => (value !== null && typeof value === 'object' && !Buffer.isBuffer(value) ? 1 : value);

function plan(query: CompiledQuery, options: ExplainOptions = {}): Promise<QueryPlan> {
  return explain(server.ctx.db, { sql: query.sql, parameters: query.parameters.map(bindable) }, options);
}

const TABLES = ['users', 'posts', 'comments', 'jobs', 'remote_actors', 'remote_followers', 'post_reactions', 'federation_blocks', 'federation_deliveries'];

function fullScans(found: QueryPlan): PlanStep[] {
  return found.steps.filter((step) => TABLES.includes(step.table) && step.access === 'scan');
}

for (const [name, url] of [
  ['the Fediverse tab', '/api/admin/federation'],
  ['the Fediverse tab, later pages', '/api/admin/federation?followers_skip=1&deliveries_skip=1&failures_skip=1'],
  ['the blocks', '/api/admin/federation/blocks'],
]) {
  test(`${name}: index-backed, no sort`, async () => {
    captured.length = 0;
    const res = await server.api('GET', url!, { token: admin.token });
    assert.equal(res.status, 200);
    const selects = captured.filter((q) => /^\s*select/i.test(q.sql) && /federation|remote_|jobs/.test(q.sql));
    assert.ok(selects.length >= 1);
    for (const query of selects) {
      const found = await plan(query);
      assert.deepEqual(fullScans(found), [], `${query.sql}\n${found.text}`);
      assert.equal(found.sorts, false, `sorts every row:\n${query.sql}\n${found.text}`);
    }
  });
}

test('the failures are read through jobs_federation_retries', async () => {
  captured.length = 0;
  await server.api('GET', '/api/admin/federation', { token: admin.token });
  const page = captured.find((q) => /from "jobs"/i.test(q.sql) && /limit/i.test(q.sql))!;
  const found = await plan(page);
  assert.ok(found.steps.some((step) => step.table === 'jobs' && step.index === 'jobs_federation_retries'), found.text);
});

test("an inbox post's block check, and an account's block, find their rows by key", async () => {
  captured.length = 0;
  await blockOfSender(server.ctx.db, { actor: new URL('https://a.far.example/users/x'), keyId: new URL('https://a.far.example/users/x#main-key') }, async () => 'x');
  await server.ctx.db.insertInto('federation_blocks').values({ target: '@y@far.example', created_at: new Date().toISOString() }).execute();
  await blockOfSender(server.ctx.db, { actor: new URL('https://far.example/users/y') }, async () => 'y');
  const checks = [...captured];
  assert.ok(checks.length >= 3, checks.map((q) => q.sql).join('\n'));
  for (const query of checks) {
    const found = await plan(query);
    assert.ok(found.steps.every((step) => step.access === 'search'), `${query.sql}\n${found.text}`);
  }
  await sqlRows(server.ctx.db, "DELETE FROM federation_blocks WHERE target = '@y@far.example'");

  captured.length = 0;
  const res = await server.api('PUT', `/api/admin/federation/blocks/${encodeURIComponent('@fan@far.example')}`, { token: admin.token });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.removed.followers, 1);
  const selects = captured.filter((q) => /^\s*select/i.test(q.sql));
  assert.ok(selects.length >= 3);
  for (const query of selects) {
    const found = await plan(query, { allowSort: true });
    assert.deepEqual(fullScans(found), [], `${query.sql}\n${found.text}`);
  }
});
