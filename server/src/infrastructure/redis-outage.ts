// Which errors mean "Redis is down or went away" rather than a bug: node-redis's connection errors, by class.
import {
  ClientClosedError,
  ClientOfflineError,
  ConnectionTimeoutError,
  DisconnectsClientError,
  SocketClosedUnexpectedlyError,
} from 'redis';

const OUTAGE_ERRORS = [
  ClientOfflineError,
  ClientClosedError,
  ConnectionTimeoutError,
  SocketClosedUnexpectedlyError,
  DisconnectsClientError,
];

/**
 * A command Redis refused or dropped because the connection is down or being closed (the clients
 * fail fast: their offline queue is off). Callers answer 503, or log it while shutting down.
 */
export function isRedisOutage(error: unknown): error is Error {
  return OUTAGE_ERRORS.some((type) => error instanceof type);
}
