// The error a command answers with: MongoDB's numeric code, its name, and any extra reply fields.
import type { Document } from 'bson';

export const ErrorCodes = {
  InternalError: 1,
  BadValue: 2,
  FailedToParse: 9,
  TypeMismatch: 14,
  PathNotViable: 28,
  IllegalOperation: 20,
  NamespaceNotFound: 26,
  IndexNotFound: 27,
  ConflictingUpdateOperators: 40,
  CursorNotFound: 43,
  NamespaceExists: 48,
  DollarPrefixedFieldName: 52,
  CommandNotFound: 59,
  ImmutableField: 66,
  CannotCreateIndex: 67,
  InvalidOptions: 72,
  InvalidNamespace: 73,
  IndexOptionsConflict: 85,
  IndexKeySpecsConflict: 86,
  CommandNotSupported: 115,
  Location40324: 40324,
  Location40571: 40571,
  Location31253: 31253,
  Location31254: 31254,
  Location31264: 31264,
  Location6108304: 6108304,
  DuplicateKey: 11000,
  BSONObjectTooLarge: 10334,
} as const;

export type ErrorCodeName = keyof typeof ErrorCodes;

export class CommandError extends Error {
  override readonly name = 'CommandError';
  readonly code: number;

  constructor(
    readonly codeName: ErrorCodeName,
    message: string,
    readonly extra: Document = {},
  ) {
    super(message);
    this.code = ErrorCodes[codeName];
  }

  toReply(): Document {
    return { ok: 0, errmsg: this.message, code: this.code, codeName: this.codeName, ...this.extra };
  }
}

/** mingo reports bad operators as plain errors; MongoDB calls most of them BadValue. */
export function toCommandError(error: unknown): CommandError {
  if (error instanceof CommandError) return error;
  const message = error instanceof Error ? error.message : String(error);
  // Backstop for script operators the up-front checks (server-script.ts) did not see.
  if (/^\$where .*requires 'scriptEnabled'/.test(message))
    return new CommandError('Location6108304', 'no globalScriptEngine in $where parsing');
  if (/requires 'scriptEnabled'/.test(message))
    return new CommandError('Location31264', 'Cannot run server-side javascript without the javascript engine enabled');
  return new CommandError('BadValue', message);
}
