// pino logs: JSON for machines, or one coloured line per event for a person at a terminal; credentials are redacted in both.
import type { Writable } from 'node:stream';
import { type DestinationStream, type Logger, pino } from 'pino';
import pinoPretty from 'pino-pretty';
import type { LogFormat } from './config.js';

export type { Logger };

const REDACTED_PATHS = [
  'password',
  '*.password',
  'token',
  '*.token',
  'secret',
  '*.secret',
  'authorization',
  '*.authorization',
  'headers.authorization',
  'headers.cookie',
  '*.headers.authorization',
  '*.headers.cookie',
];

/** LOG_FORMAT when set; otherwise pretty on a terminal and JSON everywhere else (files, pipes, log collectors). */
export function resolveLogFormat(forced: LogFormat | undefined, output: { isTTY?: boolean } = process.stdout): LogFormat {
  return forced ?? (output.isTTY ? 'pretty' : 'json');
}

export interface LoggerOptions {
  level?: string;
  name?: string;
  /** Unset: decided by whether `output` is a terminal. */
  format?: LogFormat | undefined;
  /** Where lines go (stdout by default). */
  output?: Writable & { isTTY?: boolean };
}

export function createLogger({ level = 'info', name = 'lumibase', format, output = process.stdout }: LoggerOptions = {}): Logger {
  const options = { name, level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } };
  if (resolveLogFormat(format, output) === 'json') {
    return output === process.stdout ? pino(options) : pino(options, output as DestinationStream);
  }
  // Synchronous, in this thread: a crash's last lines are not lost in a transport worker's buffer.
  const pretty = pinoPretty({
    destination: output,
    sync: true,
    colorize: true,
    colorizeObjects: true,
    singleLine: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname',
  });
  return pino(options, pretty);
}
