// Which errors are outages (503) and which are bugs (500): the driver's and node-redis's real error classes.
import mongoose from 'mongoose';
import { ClientClosedError, ClientOfflineError } from 'redis';
import { describe, expect, it } from 'vitest';
import { isDependencyOutage } from './dependency-outage.js';

const driver = mongoose.mongo;

describe('isDependencyOutage', () => {
  it.each([
    ['MongoNetworkError', new driver.MongoNetworkError('connection reset')],
    ['MongoNetworkTimeoutError', new driver.MongoNetworkTimeoutError('timed out')],
    ['MongoNotConnectedError', new driver.MongoNotConnectedError('not connected')],
    ['MongoTopologyClosedError', new driver.MongoTopologyClosedError()],
    ['not writable primary (10107)', new driver.MongoServerError({ message: 'not primary', code: 10107 })],
    ['shutdown in progress (91)', new driver.MongoServerError({ message: 'shutting down', code: 91 })],
    ['Redis offline', new ClientOfflineError()],
    ['Redis closed', new ClientClosedError()],
    ['an outage wrapped as a cause', new Error('store failed', { cause: new driver.MongoNetworkError('gone') })],
    // What insertMany throws when MongoDB dies mid-command (seen in the MongoDB-kill fault test).
    [
      'a bulk write whose connection closed',
      new driver.MongoBulkWriteError(new driver.MongoNetworkError('connection 17 to 127.0.0.1:35689 closed'), {} as never),
    ],
  ])('%s is an outage', (_name, error) => {
    expect(isDependencyOutage(error)).toBe(true);
  });

  it.each([
    ['a duplicate key (11000)', new driver.MongoServerError({ message: 'E11000', code: 11000 })],
    [
      'a bulk write with a duplicate key',
      new driver.MongoBulkWriteError(new driver.MongoServerError({ message: 'E11000', code: 11000 }), {} as never),
    ],
    ['a bad query (2)', new driver.MongoServerError({ message: 'BadValue', code: 2 })],
    ['a plain Error', new Error('bug')],
    ['a TypeError', new TypeError('x is undefined')],
  ])('%s is not', (_name, error) => {
    expect(isDependencyOutage(error)).toBe(false);
  });
});
