// The typed failures of the RAG skills: DomainErrors, so the harness denies the call with their message.
import { type ErrorDetail, ValidationError } from '@lumibase/shared';

/** The model's answer does not fit (not JSON, not a valid field, a value of the wrong type): nothing is suggested. */
export class ModelAnswerRejectedError extends ValidationError {
  constructor(message: string, details?: ErrorDetail[]) {
    super({ message, ...(details ? { details } : {}) });
  }
}
