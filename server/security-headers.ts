// The security headers every response carries (helmet's, with Beatnik's content security
// policy). They are the same for every request, so helmet runs once at start on a stand-in
// response and each request gets the recorded headers: helmet's dozen middlewares per request
// were a tenth of a cached list's CPU.
import type { RequestHandler } from 'express';
import helmet from 'helmet';
import type { Config } from './config.ts';

function helmetFor(config: Config): RequestHandler {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        // Federating, a comment's or a follower's picture comes from their own server, over
        // https only (client/components/RemoteAuthor.tsx); no written text carries an <img>.
        imgSrc: ["'self'", 'data:', 'blob:', ...(config.federation.enabled ? ['https:'] : [])],
        // react-hot-toast injects its own <style>; no other inline code runs.
        styleSrc: ["'self'", "'unsafe-inline'"],
        scriptSrc: ["'self'"],
        fontSrc: ["'self'"],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    // TLS is the reverse proxy's job (docs/operations.md); PUBLIC_URL says whether it is there.
    strictTransportSecurity: config.publicUrl.startsWith('https:')
      ? { maxAge: 31_536_000, includeSubDomains: true }
      : false,
  }) as unknown as RequestHandler;
}

/** What helmet sets and removes on a response, recorded once. */
export function recordHeaders(middleware: RequestHandler): { set: Array<[string, string]>; removed: string[] } {
  const set = new Map<string, string>();
  const removed: string[] = [];
  const response = {
    setHeader(name: string, value: string) { set.set(name, String(value)); return response; },
    removeHeader(name: string) { set.delete(name); removed.push(name); },
  };
  let finished = false;
  middleware({} as never, response as never, (err?: unknown) => {
    if (err) throw err;
    finished = true;
  });
  // Helmet finishes synchronously; a version that did not would be caught here, not in production.
  if (!finished) throw new Error('helmet did not finish synchronously');
  return { set: [...set], removed };
}

export function securityHeaders(config: Config): RequestHandler {
  const { set, removed } = recordHeaders(helmetFor(config));
  return (_req, res, next) => {
    for (const [name, value] of set) res.setHeader(name, value);
    for (const name of removed) res.removeHeader(name);
    next();
  };
}
