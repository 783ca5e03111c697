// Waiting for a condition instead of sleeping: a test waits as long as what it needs takes, no
// longer, and when that never happens it fails naming what it waited for.

export interface WaitOptions {
  /** Gives up after this many milliseconds (default 10 s). */
  timeout?: number;
  /** What is awaited, for the failure message. */
  what?: string;
}

/** Resolves as soon as `check` holds, looking again every few milliseconds. */
export async function waitFor(check: () => boolean | Promise<boolean>, options: WaitOptions = {}): Promise<void> {
  const { timeout = 10_000, what = check.toString() } = options;
  const deadline = performance.now() + timeout;
  while (!await check()) {
    if (performance.now() > deadline) throw new Error(`timed out after ${timeout} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
