// Progress of a long command on stderr, beside its results on stdout: redrawn in place on a
// terminal; in a log (not a terminal) a line when a step ends and at most one every few seconds.
const LOG_EVERY_MS = 2_000;

/** Returns the function to call with each step's state; `finished` ends that step's line. */
export function progressLine(stream: NodeJS.WriteStream = process.stderr): (text: string, finished: boolean) => void {
  let lastLine = performance.now();
  return (text, finished) => {
    if (stream.isTTY) {
      stream.write(`\r${text}${finished ? '\n' : ''}`);
      return;
    }
    const now = performance.now();
    if (!finished && now - lastLine < LOG_EVERY_MS) return;
    lastLine = now;
    stream.write(`${text}\n`);
  };
}
