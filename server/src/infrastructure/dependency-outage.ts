// Which errors mean "MongoDB or Redis is down or went away" rather than a bug: by error class (and, for
// MongoDB's server errors, by the codes that mean the node is not a usable primary), and — for a class no
// rule lists — by asking the backing services themselves. Routes answer 503.
import { MaxRetriesPerRequestError } from 'ioredis/built/errors/index.js';
import { CONNECTION_CLOSED_ERROR_MSG } from 'ioredis/built/utils/index.js';
import mongoose from 'mongoose';
import type { DependencyCheck } from './dependency-check.js';
import {
  ClientClosedError,
  ClientOfflineError,
  ConnectionTimeoutError,
  DisconnectsClientError,
  ReconnectStrategyError,
  SocketClosedUnexpectedlyError,
  SocketTimeoutError,
} from 'redis';

const REDIS_OUTAGE_ERRORS = [
  ClientOfflineError,
  ClientClosedError,
  ConnectionTimeoutError,
  SocketClosedUnexpectedlyError,
  SocketTimeoutError,
  ReconnectStrategyError,
  DisconnectsClientError,
  // ioredis (BullMQ's connections): a command given up after its retries while Redis does not answer.
  MaxRetriesPerRequestError,
];

const driver = mongoose.mongo;

/**
 * The driver's connection-level failures. MongoNetworkError covers MongoNetworkTimeoutError and
 * MongoPoolClearedError (a pool cleared because its server went away); MongoServerSelectionError
 * is what an operation gets once serverSelectionTimeoutMS passed with no server to talk to.
 */
const MONGO_OUTAGE_ERRORS = [
  driver.MongoServerSelectionError,
  driver.MongoNetworkError,
  driver.MongoNotConnectedError,
  driver.MongoTopologyClosedError,
  driver.MongoServerClosedError,
  driver.MongoClientClosedError,
  driver.MongoStalePrimaryError,
  driver.MongoOperationTimeoutError,
  mongoose.Error.MongooseServerSelectionError,
];

/** Server error codes that say "not a primary I can write to / going away", not "your command is wrong". */
const MONGO_OUTAGE_CODES = new Set([
  6, // HostUnreachable
  7, // HostNotFound
  89, // NetworkTimeout
  91, // ShutdownInProgress
  189, // PrimarySteppedDown
  9001, // SocketException
  10107, // NotWritablePrimary
  11600, // InterruptedAtShutdown
  11602, // InterruptedDueToReplStateChange
  13435, // NotPrimaryNoSecondaryOk
  13436, // NotPrimaryOrSecondary
]);

/**
 * The socket-level failures a Redis client rejects its in-flight commands with when the connection breaks:
 * node-redis passes the socket's own error on (a plain `Error: read ECONNRESET` with a system `code`), ioredis a
 * plain `Error("Connection is closed.")`. Neither has a class of its own. A Redis killed mid-command gives one of
 * these; one rejected by a command nobody awaited (the socket.io adapter's publish) took the server down in the
 * Redis-outage fault test, as the process-level rule did not know it.
 */
const SOCKET_FAILURE_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTCONN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

function isSocketFailure(error: unknown): error is Error {
  if (!(error instanceof Error)) return false;
  if (error.message === CONNECTION_CLOSED_ERROR_MSG) return true;
  const { code, syscall } = error as { code?: unknown; syscall?: unknown };
  return typeof code === 'string' && SOCKET_FAILURE_CODES.has(code) && typeof syscall === 'string';
}

/**
 * A command Redis refused or dropped because the connection is down or being closed (the clients
 * fail fast: their offline queue is off). Callers answer 503, or log it while shutting down.
 */
export function isRedisOutage(error: unknown): error is Error {
  return REDIS_OUTAGE_ERRORS.some((type) => error instanceof type) || isSocketFailure(error);
}

/** MongoDB unreachable, gone away mid-command, or not a writable primary. */
export function isMongoOutage(error: unknown): error is Error {
  if (MONGO_OUTAGE_ERRORS.some((type) => error instanceof type)) return true;
  return error instanceof driver.MongoServerError && typeof error.code === 'number' && MONGO_OUTAGE_CODES.has(error.code);
}

/**
 * Either backing service is out, also when the outage is the `cause` of a wrapping error (a few levels deep), or
 * the `errorResponse` of a MongoBulkWriteError (insertMany and bulkWrite wrap a connection closed mid-command so).
 */
export function isDependencyOutage(error: unknown): error is Error {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current !== undefined && current !== null; depth++) {
    if (isRedisOutage(current) || isMongoOutage(current)) return true;
    if (current instanceof driver.MongoBulkWriteError && isMongoOutage(current.errorResponse)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** How long the outage probe waits for a backing service before taking it as down. */
export const OUTAGE_PROBE_MS = 1_000;

/**
 * True when a backing service does not answer its health probe within `boundMs`. Never rejects and never throws,
 * whatever a check does (throws synchronously, rejects, hangs, or rejects after the bound).
 */
export async function anyDependencyDown(dependencies: readonly DependencyCheck[], boundMs = OUTAGE_PROBE_MS): Promise<boolean> {
  if (dependencies.length === 0) return false;
  const answers = dependencies.map(
    ({ check }) =>
      new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(true), boundMs);
        // Promise.resolve().then: a check that throws synchronously is a rejection here, not an exception.
        Promise.resolve()
          .then(check)
          .then(
            () => resolve(false),
            () => resolve(true),
          )
          .finally(() => clearTimeout(timer));
      }),
  );
  return (await Promise.all(answers)).some(Boolean);
}

/**
 * The one outage rule, total: an error of a listed class is an outage; any other error is one too when it was raised
 * while MongoDB or Redis does not answer its health probe (a driver error class no rule lists yet, or a plain Error
 * such as ioredis' "Connection is closed."). Never rejects.
 */
export async function isOutage(error: unknown, dependencies: readonly DependencyCheck[]): Promise<boolean> {
  return isDependencyOutage(error) || (await anyDependencyDown(dependencies));
}
