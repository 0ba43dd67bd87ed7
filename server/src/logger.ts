// Structured JSON logs (pino); credentials are redacted wherever they appear.
import { type Logger, pino } from 'pino';

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

export function createLogger({ level = 'info', name = 'lumibase' }: { level?: string; name?: string } = {}): Logger {
  return pino({ name, level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } });
}
