// Structured JSON logs, one line per event (pino); the level comes from LOG_LEVEL.
import type { RequestHandler } from 'express';
import { pino, type DestinationStream, type Level, type Logger } from 'pino';
import type { LogLevel } from './config.ts';

export type { Logger };

/** Logs go to stdout unless a destination is given (tests read them from a stream). */
export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  const options = { level, base: undefined, timestamp: pino.stdTimeFunctions.isoTime };
  return destination ? pino(options, destination) : pino(options);
}

/** A request taking longer than this, upload included, is worth a line at info. */
export const SLOW_REQUEST_MS = 500;

const HEALTH_PATH = '/api/health';

/**
 * One line per request at debug. At info only what needs a look (docs/operations.md, Logs):
 * server errors (5xx, at error) and slow requests (at warn). 4xx are the client's business —
 * scanners' 404s, expired sign-ins, throttled floods — and logging them at info would let anyone
 * fill the disk. Health checks (every few seconds from Docker or a load balancer) are not
 * counted as slow: only their failures show.
 */
export function requestLog(log: Logger): RequestHandler {
  return (req, res, next) => {
    const started = Date.now();
    res.once('close', () => {
      const ms = Date.now() - started;
      const path = req.originalUrl.split('?')[0]!;
      const aborted = !res.writableFinished;
      const level: Level = res.statusCode >= 500 && !aborted ? 'error'
        : ms > SLOW_REQUEST_MS && path !== HEALTH_PATH ? 'warn'
          : 'debug';
      if (!log.isLevelEnabled(level)) return;
      log[level]({
        request_id: req.id, method: req.method, path, status: res.statusCode, ms, ip: req.ip,
        ...(aborted ? { aborted: true } : {}),
      }, level === 'error' ? 'server error' : level === 'warn' ? 'slow request' : 'request');
    });
    next();
  };
}

/**
 * With no TRUSTED_PROXY, an X-Forwarded-For header is ignored. Said once per process, at warn:
 * behind a proxy that means every reader shares the proxy's address (and its throttles).
 */
export function forwardedForIgnored(log: Logger): RequestHandler {
  let said = false;
  return (req, _res, next) => {
    if (!said && req.headers['x-forwarded-for'] !== undefined) {
      said = true;
      log.warn({ ip: req.ip }, 'X-Forwarded-For ignored: no TRUSTED_PROXY is set (docs/operations.md)');
    }
    next();
  };
}
