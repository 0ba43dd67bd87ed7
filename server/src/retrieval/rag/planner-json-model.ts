// JsonModel on top of any Planner: one plan() with the answer tool alone; its call's arguments are the answer.
import { UnavailableError } from '@lumibase/shared';
import { ModelCallError } from '../../llm/model-call-error.js';
import type { Planner } from '../../llm/planner.js';
import type { JsonModel, JsonModelRequest } from './json-model.js';
import { ModelAnswerRejectedError } from './rag-errors.js';

const SHOWN_MAX = 200;

export class PlannerJsonModel implements JsonModel {
  readonly name: string;

  constructor(private readonly planner: Planner) {
    this.name = planner.model ? `${planner.provider}/${planner.model}` : planner.provider;
  }

  async completeJson({ system, user, answer, signal }: JsonModelRequest): Promise<unknown> {
    let output: Awaited<ReturnType<Planner['plan']>>;
    try {
      output = await this.planner.plan({
        messages: [
          { role: 'system', content: system },
          { role: 'user', content: user },
        ],
        tools: [answer],
        ...(signal ? { signal } : {}),
      });
    } catch (error) {
      // ModelCallError messages are written to be shown (never the key); anything else is not.
      const reason = error instanceof ModelCallError ? error.message : 'the call failed';
      throw new UnavailableError({ message: `The language model could not answer: ${reason}` });
    }
    const call = output.toolCalls.find((candidate) => candidate.name === answer.name) ?? output.toolCalls[0];
    if (call) {
      if (call.argumentsError) throw new ModelAnswerRejectedError(`The model's answer was refused: ${call.argumentsError}`);
      return call.arguments;
    }
    // Some models write the JSON as text instead of calling the tool.
    const parsed = parseJsonText(output.text);
    if (parsed === undefined)
      throw new ModelAnswerRejectedError(
        `The model's answer was refused: it did not call ${answer.name} and its text is not a JSON object (${shown(output.text)})`,
      );
    return parsed;
  }
}

/** A Planner that can answer (anything but echo), as a JsonModel; undefined for echo, which answers from retrieval alone. */
export function jsonModelOf(planner: Planner): JsonModel | undefined {
  return planner.provider === 'echo' ? undefined : new PlannerJsonModel(planner);
}

function parseJsonText(text: string | undefined): Record<string, unknown> | undefined {
  if (!text) return undefined;
  const unfenced = text
    .trim()
    .replace(/^```(?:json)?\s*/i, '')
    .replace(/\s*```$/, '');
  try {
    const value: unknown = JSON.parse(unfenced);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function shown(text: string | undefined): string {
  if (!text) return 'no text';
  return text.length <= SHOWN_MAX ? JSON.stringify(text) : `${JSON.stringify(text.slice(0, SHOWN_MAX))}…`;
}
