// The one model call a RAG skill makes: a system text and a user text in, one JSON object out (the arguments of a
// single answer tool), untrusted until the skill validates it.
import type { JsonSchema } from '@lumibase/shared';

export interface JsonModelRequest {
  system: string;
  user: string;
  /** The tool the model answers through: its name, what it is for and the JSON Schema of its arguments. */
  answer: { name: string; description: string; parameters: JsonSchema };
  signal?: AbortSignal;
}

export interface JsonModel {
  /** The provider and model, for rationales and logs. */
  readonly name: string;
  /**
   * The model's answer, parsed but unchecked. Rejects with ModelAnswerRejectedError when the model answered
   * with something that is not a JSON object, and with UnavailableError when the model could not be reached.
   */
  completeJson(request: JsonModelRequest): Promise<unknown>;
}
