// Test support: a stream that keeps the server's log lines as objects (startTestServer's logTo).
import { Writable } from 'node:stream';

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
