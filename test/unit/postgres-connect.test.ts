// Why a first connection to PostgreSQL failed, as start-up's one line says it: pg's own errors
// (a server that never answers, one that hangs up) come without a code, so they are read by their
// message. These run the real driver against servers that misbehave, so a pg upgrade that changes
// those messages fails here rather than in an operator's log.
import assert from 'node:assert/strict';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { after, test } from 'node:test';
import pg from 'pg';
import { reasonOf } from '../../server/postgres/postgres.database.ts';

const sockets: Socket[] = [];
const servers: Server[] = [];
after(() => {
  for (const socket of sockets) socket.destroy();
  for (const server of servers) server.close();
});

async function listen(onConnection: (socket: Socket) => void): Promise<number> {
  const server = createServer((socket) => { sockets.push(socket); onConnection(socket); });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** The error pg's pool gives for a first connection, with a short timeout. */
async function firstConnectionError(port: number): Promise<unknown> {
  const pool = new pg.Pool({ connectionString: `postgres://u:p@127.0.0.1:${port}/db`, connectionTimeoutMillis: 200 });
  try {
    await pool.query('SELECT 1');
  } catch (err) {
    return err;
  } finally {
    await pool.end();
  }
  assert.fail('the connection succeeded');
}

test('a server that accepts and never answers: the connection timed out, with the wait start-up allows', async () => {
  const port = await listen(() => {});
  assert.equal(reasonOf(await firstConnectionError(port)), 'no answer within 10 s (connection timed out)');
});

test('a server that hangs up (not PostgreSQL on that port): said so, whether it closes or resets', async () => {
  const closes = await listen((socket) => { socket.once('data', () => socket.end()); });
  const resets = await listen((socket) => socket.resetAndDestroy());
  for (const port of [closes, resets]) {
    assert.equal(reasonOf(await firstConnectionError(port)), 'the server closed the connection (is that PostgreSQL\'s port?)');
  }
});

test('the errors with a code keep their short reasons', () => {
  assert.equal(reasonOf(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })), 'connection refused');
  assert.equal(reasonOf(Object.assign(new Error('password authentication failed'), { code: '28P01' })), 'authentication failed');
  assert.equal(reasonOf(new Error('The server does not support SSL connections\nmore')), 'The server does not support SSL connections');
});
