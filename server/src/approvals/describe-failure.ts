// Turns whatever an executor threw into data for the model, the approval and the audit.
import { DomainError, type ErrorDetail, quotedSkill } from '@lumibase/shared';

export interface Failure {
  message: string;
  code?: string;
  details?: ErrorDetail[];
}

/**
 * A DomainError's message is meant for users ("collection posts not found"); anything else may
 * carry internals (driver messages, paths), so it is reported generically and handed to `report`.
 */
export function describeFailure(error: unknown, skillName: string, report?: (error: unknown) => void): Failure {
  if (error instanceof DomainError) {
    return { message: error.message, code: error.code, ...(error.details ? { details: error.details } : {}) };
  }
  report?.(error);
  return { message: `${quotedSkill(skillName)} failed with an internal error`, code: 'INTERNAL' };
}

/** A JSON-safe copy of a value the model sent, for outcomes and audit entries. */
export function jsonSafe(value: unknown): unknown {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? null : JSON.parse(text);
  } catch {
    return Object.prototype.toString.call(value);
  }
}
