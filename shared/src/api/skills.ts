// POST /ai/skills/:name: the Studio runs one safe skill directly (no model), through the Copilot's gate; and the data the
// RAG skills answer with (docs/API.md, "Search, embeddings and the RAG skills").
import { z } from 'zod';
import { Field } from '../fields.js';
import { SkillOutcome } from '../skills/outcome.js';
import { dataEnvelope } from './envelope.js';

/** The body is the skill's arguments: a JSON object, validated by the gate with the skill's own schema. */
export const RunSkillRequest = z.record(z.string(), z.unknown(), { error: 'must be a JSON object of the skill’s arguments' });
export type RunSkillRequest = z.infer<typeof RunSkillRequest>;

/** 200 with an `executed` outcome; 202 with `pending_approval` when the site's policy makes the skill ask. */
export const RunSkillResponse = dataEnvelope(SkillOutcome);
export type RunSkillResponse = z.infer<typeof RunSkillResponse>;

const Score = z.number().min(-1).max(1);

/** aiSuggestField's `data`: a Field the collection does not have yet, why, and the fields it was drawn from. */
export const SuggestFieldData = z.object({
  suggestion: Field,
  rationale: z.string(),
  similar: z.array(z.object({ collection: z.string(), field: z.string(), score: Score })),
});
export type SuggestFieldData = z.infer<typeof SuggestFieldData>;

/** aiContentAssist's `data`: a value that fits the field's type, why, and the items it drew on. */
export const ContentAssistData = z.object({
  field: z.string(),
  value: z.unknown(),
  rationale: z.string(),
  sources: z.array(z.object({ collection: z.string(), id: z.string(), score: Score })),
});
export type ContentAssistData = z.infer<typeof ContentAssistData>;
