// Structured JSON logs, one line per event (pino); the level comes from LOG_LEVEL.
import { pino, type Logger } from 'pino';
import type { LogLevel } from './config.ts';

export type { Logger };

export function createLogger(level: LogLevel): Logger {
  return pino({ level, base: undefined, timestamp: pino.stdTimeFunctions.isoTime });
}
