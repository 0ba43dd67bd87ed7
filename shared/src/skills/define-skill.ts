// What a skill is: a typed operation the Copilot may call, with the capabilities it needs, and every fact about it
// that the model, the Studio and the planners need (one place per skill; a fact left out does not compile).
import type { z } from 'zod';
import type { Capability } from '../capabilities.js';
import type { ReplyData } from './reply-words.js';

/** Arguments as the model produced them, not yet validated: a sentence about them reads only the strings it finds. */
export type UncheckedArguments = Record<string, unknown>;

export interface SkillDefinition<Name extends string = string, Parameters extends z.ZodType = z.ZodType> {
  readonly name: Name;
  /** Written for the language model: what the skill does, when to use it, what it needs. */
  readonly description: string;
  /** The arguments' schema; the JSON Schema the model sees is generated from it. */
  readonly parameters: Parameters;
  readonly requiredCapabilities: readonly Capability[];
  /**
   * The risk rule of ADR-003, stated by each skill and read by the gate: a dangerous skill always waits for a human
   * (never `auto` or `warn`). The seeds' rule: dangerous iff it requires `schema:write` or its name starts with `delete`
   * (risk.test.ts holds every skill to it and to a table by name, so a new skill is decided by a person).
   */
  readonly dangerous: boolean;
  /** The skill as an action a person reads: "Add a field". */
  readonly action: string;
  /**
   * Its result carries site content or schema text written by users, which the model reads (the item a write returns
   * too): a later write or dangerous proposal in the same run records it as `readBefore` (docs/API.md, "The gate's tiers").
   */
  readonly readsContent: boolean;
  /**
   * Running it calls a language model or the embedder: inside a chat turn it counts against the caller's per-user
   * model-call limit like the turn's own model calls (docs/API.md, "The gate's tiers and limits").
   */
  readonly callsModel: boolean;
  /** The argument whose value an approver types before approving (the one thing a misclick cannot undo); false: a click is enough. */
  readonly confirmByName: string | false;
  /** The call in one plain sentence for the person deciding on it; undefined when the arguments it names are not strings. */
  readonly describe: (args: UncheckedArguments) => string | undefined;
  /**
   * The echo planner's reply about a call (server/src/llm/echo-reply.ts), each undefined when the skill has no sentence
   * for it or the arguments it names are not there.
   */
  readonly reply: {
    /** A call waiting for approval, as the start of a sentence: "Removing the field summary from posts". */
    readonly doing: (args: UncheckedArguments) => string | undefined;
    /** What a call that ran did, from its result: "Listed 2 collections: posts, events." */
    readonly done: (data: ReplyData, args: UncheckedArguments) => string | undefined;
  };
  /** A phrase the echo planner understands that does this (or the nearest one that works), with one of the site's collections. */
  readonly example: (collection: string) => string;
}

export function defineSkill<const Name extends string, Parameters extends z.ZodType>(
  skill: SkillDefinition<Name, Parameters> & {
    readonly confirmByName: (keyof z.input<Parameters> & string) | false;
    /** A skill named `delete…` that says it is safe does not compile. */
    readonly dangerous: Name extends `delete${string}` ? true : boolean;
  },
): SkillDefinition<Name, Parameters> {
  return Object.freeze({ ...skill, requiredCapabilities: Object.freeze([...skill.requiredCapabilities]) });
}

/**
 * A skill that changes something (it needs a capability beyond reading): the one definition of "writes". Only these can
 * be `warn`; in a turn with a plan they become steps instead of running; an MCP tool that does not write is read-only.
 */
export function writes(skill: { readonly requiredCapabilities: readonly string[] }): boolean {
  return !skill.requiredCapabilities.every((capability) => capability.endsWith(':read'));
}
