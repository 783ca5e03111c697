// Imported (--import) into a child process a test forks: each time a timer of the global
// setTimeout fires, the child tells the test over its IPC channel, once the callback has run. A
// test then waits for a number of the child's timed looks at something, where it would otherwise
// sleep through them and hope they happened.

/** The message a fired timer sends: its delay. */
export interface TimerFired {
  timerFired: number;
}

export const isTimerFired = (message: unknown): message is TimerFired =>
  typeof message === 'object' && message !== null && 'timerFired' in message;

const plain = globalThis.setTimeout;
globalThis.setTimeout = ((callback: (...args: unknown[]) => void, delay?: number, ...args: unknown[]) =>
  plain((...given: unknown[]) => {
    callback(...given);
    if (process.connected) process.send!({ timerFired: delay ?? 0 } satisfies TimerFired);
  }, delay, ...args)) as typeof setTimeout;
