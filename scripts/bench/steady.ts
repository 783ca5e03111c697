// Requests at a steady rate, each timed from the moment it was due: an open loop, as readers
// arrive. autocannon's connections each wait for their answer before asking again, so at full
// load a request's time is mostly the queue the other 49 make (the bare-Express ceiling's own
// p99 is 7–9 ms there); this measures what one request waits at a given rate, and a late send
// (a busy probe) counts against the server, never for it.
import http from 'node:http';
import { percentile } from './refresh.ts';

export interface SteadyLoad {
  /** Requests a second. */
  rate: number;
  /** The path of each next request. */
  path: () => string;
}

export interface SteadyResult {
  /** Answers received. */
  requests: number;
  /** Requests sent. */
  sent: number;
  /** From due to answered, in ms, to a tenth. */
  p50: number;
  p99: number;
  /** Failed requests and answers other than 2xx. */
  errors: number;
}

export async function steadyRun(url: string, load: SteadyLoad, seconds: number): Promise<SteadyResult> {
  const { hostname, port } = new URL(url);
  // Enough sockets that no request waits for one: at 2,000/s and a few ms each, a few dozen.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const total = Math.round(load.rate * seconds);
  const times: number[] = [];
  const answers: Array<Promise<void>> = [];
  let errors = 0;
  const send = (dueAt: number) => new Promise<void>((resolve) => {
    const request = http.get({ hostname, port, path: load.path(), agent }, (res) => {
      res.resume();
      res.on('end', () => {
        times.push(performance.now() - dueAt);
        if (res.statusCode! < 200 || res.statusCode! >= 300) errors += 1;
        resolve();
      });
    });
    request.on('error', () => {
      errors += 1;
      resolve();
    });
  });
  const started = performance.now();
  await new Promise<void>((resolve) => {
    // Each tick sends every request due by now, timed from when it was due.
    const timer = setInterval(() => {
      const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * load.rate) + 1);
      while (answers.length < due) answers.push(send(started + (answers.length * 1000) / load.rate));
      if (answers.length >= total) {
        clearInterval(timer);
        resolve();
      }
    }, 1);
  });
  await Promise.all(answers);
  agent.destroy();
  const sorted = times.sort((a, b) => a - b);
  const at = (share: number) => Math.round(percentile(sorted, share) * 10) / 10;
  return { requests: times.length, sent: answers.length, p50: at(0.5), p99: at(0.99), errors };
}
