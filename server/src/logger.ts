// Structured JSON logs (pino); credentials are redacted wherever they appear.
import { type DestinationStream, type Logger, pino } from 'pino';

export type { Logger };

const REDACTED_PATHS = [
  'password',
  '*.password',
  'token',
  '*.token',
  'authorization',
  '*.authorization',
  'headers.authorization',
  'headers.cookie',
  '*.headers.authorization',
  '*.headers.cookie',
];

/** `destination` (stdout when absent) lets tests read every line the process would write. */
export function createLogger({
  level = 'info',
  name = 'lumibase',
  destination,
}: {
  level?: string;
  name?: string;
  destination?: DestinationStream;
} = {}): Logger {
  const options = { name, level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } };
  return destination ? pino(options, destination) : pino(options);
}
