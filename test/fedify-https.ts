// A Fedify federation served over https on a loopback port with the test certificate, by plain
// node:https: each request becomes a web Request for `federation.fetch` and its Response is
// written back. (@fedify/express can kill the process: RECIPES.md.) The request's body, read
// whole, is handed to the federation's context data as it came.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Federation } from '@fedify/fedify';
import { testCertificate } from './test-certificate.ts';

export interface FedifyServer {
  /** `https://127.0.0.1:PORT`. */
  url: string;
  /** `127.0.0.1:PORT`. */
  host: string;
  close(): Promise<void>;
}

/** A file served beside the federation, such as an avatar. */
export interface ServedFile { type: string; body: Buffer }

export async function serveFedify<Data>(federation: Federation<Data>, options: {
  /** The context data of a request, from its body (null: GET and HEAD). */
  contextData: (body: string | null) => Data;
  files?: (path: string) => ServedFile | undefined;
  /** What failed while answering (the answer is then a 500). */
  onError: (error: unknown) => void;
}): Promise<FedifyServer> {
  const { key, cert } = testCertificate();
  const server = createServer({ key, cert }, (req, res) => {
    answer(req, res).catch((err: unknown) => {
      options.onError(err);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const path = req.url ?? '/';
    const file = req.method === 'GET' ? options.files?.(path) : undefined;
    if (file) {
      res.writeHead(200, { 'content-type': file.type }).end(file.body);
      return;
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    const body = req.method === 'GET' || req.method === 'HEAD' ? null : Buffer.concat(chunks);
    const request = new Request(new URL(path, url), { method: req.method, headers, body });
    const response = await federation.fetch(request, { contextData: options.contextData(body?.toString('utf8') ?? null) });
    response.headers.forEach((value, name) => res.setHeader(name, value));
    res.writeHead(response.status).end(Buffer.from(await response.arrayBuffer()));
  }
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  const url = `https://${host}`;
  return {
    url,
    host,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}
