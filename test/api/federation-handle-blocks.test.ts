// A block by the handle an actor's server gives it (federation/federation.blocks.ts,
// blockOfHandle): an actor at social.example.com may be bob@example.com, which the inbox knows
// only once Fedify has fetched the actor; a block of that account, or of that domain, covers it.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { blockOfHandle } from '../../server/federation/federation.blocks.ts';
import { createAdmin, startTestServer, type TestServer } from '../helpers.ts';

let server: TestServer;
before(async () => {
  server = await startTestServer();
  const admin = await createAdmin(server);
  const at = new Date().toISOString();
  await server.ctx.db.insertInto('federation_blocks').values([
    { target: '@bob@split.test', created_by: admin.id, created_at: at },
    { target: 'spam.test', created_by: admin.id, created_at: at },
  ]).execute();
});
after(async () => { await server.stop(); });

test('covers the account blocked by its handle, and every account of a blocked domain or its subdomains', async () => {
  assert.equal(await blockOfHandle(server.ctx.db, 'bob@split.test'), '@bob@split.test');
  assert.equal(await blockOfHandle(server.ctx.db, 'bob@split.test:8443'), '@bob@split.test');
  assert.equal(await blockOfHandle(server.ctx.db, 'anyone@spam.test'), 'spam.test');
  assert.equal(await blockOfHandle(server.ctx.db, 'anyone@eggs.spam.test'), 'spam.test');
});

test('leaves the others alone: another account of the same domain, another domain', async () => {
  assert.equal(await blockOfHandle(server.ctx.db, 'alice@split.test'), undefined);
  assert.equal(await blockOfHandle(server.ctx.db, 'bob@notspam.test'), undefined);
  assert.equal(await blockOfHandle(server.ctx.db, 'bob@'), undefined);
});
