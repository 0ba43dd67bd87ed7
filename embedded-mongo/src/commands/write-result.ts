// Shared helpers for write commands: write-error entries and the statement loop with `ordered`.
import { type Document, serialize } from 'bson';
import { CommandError, toCommandError } from '../engine/command-error.js';

/** A write error as it appears in `writeErrors` (mongod omits codeName there). */
export function toWriteError(index: number, error: unknown): Document {
  const { code, message, extra } = toCommandError(error);
  return { index, code, errmsg: message, ...extra };
}

/**
 * Runs each statement; an ordered batch stops at the first failure, an unordered one carries on.
 * Everything applied before a failure stays applied (and is journaled), as in MongoDB.
 */
export function runStatements<T>(statements: T[], ordered: boolean, run: (statement: T, index: number) => void): Document[] {
  const writeErrors: Document[] = [];
  for (let index = 0; index < statements.length; index++) {
    try {
      run(statements[index] as T, index);
    } catch (error) {
      if (!(error instanceof CommandError) && !(error instanceof Error)) throw error;
      writeErrors.push(toWriteError(index, error));
      if (ordered) break;
    }
  }
  return writeErrors;
}

export function requireArray(command: Document, field: string): Document[] {
  const value = command[field];
  if (!Array.isArray(value)) throw new CommandError('TypeMismatch', `BSON field '${field}' is missing or not an array`);
  return value as Document[];
}

/** Whether an update changed anything (MongoDB's nModified ignores no-op updates). */
export function sameDocument(a: Document, b: Document): boolean {
  return Buffer.from(serialize(a)).equals(serialize(b));
}
