// Which errors mean "MongoDB or Redis is down or went away" rather than a bug, by error class (and, for
// MongoDB's server errors, by the codes that mean the node is not a usable primary). Routes answer 503.
import mongoose from 'mongoose';
import {
  ClientClosedError,
  ClientOfflineError,
  ConnectionTimeoutError,
  DisconnectsClientError,
  SocketClosedUnexpectedlyError,
} from 'redis';

const REDIS_OUTAGE_ERRORS = [
  ClientOfflineError,
  ClientClosedError,
  ConnectionTimeoutError,
  SocketClosedUnexpectedlyError,
  DisconnectsClientError,
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
 * A command Redis refused or dropped because the connection is down or being closed (the clients
 * fail fast: their offline queue is off). Callers answer 503, or log it while shutting down.
 */
export function isRedisOutage(error: unknown): error is Error {
  return REDIS_OUTAGE_ERRORS.some((type) => error instanceof type);
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
