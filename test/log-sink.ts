// Test support: the server's log lines as objects, through startTestServer's `logTo`.
import { Writable } from 'node:stream';
import { startTestServer, type TestServer } from './helpers.ts';

export type LogLine = Record<string, unknown>;

export function logSink(): { stream: Writable; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line.trim()) lines.push(JSON.parse(line));
      done();
    },
  });
  return { stream, lines };
}

/**
 * Runs `requests` against a test server started with `env`, then stops it and returns what the
 * requests returned and every line logged. The lines are read once the server has stopped: by
 * then every response has closed and written its line, if any.
 */
export async function withServerLogs<T>(
  env: Record<string, string>, requests: (server: TestServer, linesSoFar: readonly LogLine[]) => Promise<T>,
): Promise<{ result: T; lines: LogLine[] }> {
  const sink = logSink();
  const server = await startTestServer({ env, logTo: sink.stream });
  let result: T;
  try {
    result = await requests(server, sink.lines);
  } finally {
    await server.stop();
  }
  return { result, lines: sink.lines };
}
