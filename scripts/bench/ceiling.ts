// The ceiling for the benchmark: bare Express answering a fixed JSON body, nothing else.
import express from 'express';
import type { AddressInfo } from 'node:net';

const body = { status: 'ok', posts: [], note: 'the fastest an Express handler can answer here' };
const app = express();
app.disable('x-powered-by');
app.get('/', (_req, res) => { res.json(body); });
const server = app.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${(server.address() as AddressInfo).port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
