// The Studio's AI helpers: semantic search (GET /ai/search) and safe skills run directly (POST /ai/skills/:name).
import { ContentAssistData, RunSkillResponse, SearchResponse, type SkillOutcome, SuggestFieldData } from '@lumibase/shared';
import type { z } from 'zod';
import { ApiError, describeError, toApiError } from './api-error.js';
import type { HttpClient } from './http-client.js';
import { segment } from './http-client.js';

/** What a skill's executed `data` must look like for the Studio to use it; anything else is explained, not guessed at. */
function executedData<T extends z.ZodType>(outcome: SkillOutcome, schema: T): z.infer<T> {
  if (outcome.status === 'pending_approval') {
    throw new ApiError({
      status: 202,
      code: 'FORBIDDEN',
      message: `${outcome.skill.name} needs an admin’s approval in this site; see Approvals.`,
    });
  }
  if (outcome.status === 'denied') throw new ApiError({ status: 200, code: 'FORBIDDEN', message: outcome.message });
  const parsed = schema.safeParse(outcome.data);
  if (parsed.success) return parsed.data;
  // e.g. a server whose RAG skills answer "not available yet".
  const said = (outcome.data as { message?: unknown } | undefined)?.message;
  throw new ApiError({
    status: 200,
    code: 'BAD_RESPONSE',
    message: typeof said === 'string' ? said : 'The server answered with something the Studio could not read.',
  });
}

const SAID_BY_SERVER = new Set(['VALIDATION_FAILED', 'FORBIDDEN', 'NOT_FOUND', 'CONFLICT', 'BAD_RESPONSE']);

/** The AI helpers' refusals say why in the server's words ("listItems is turned off for this site"); the rest as usual. */
export function describeAiError(error: unknown): string {
  const apiError = toApiError(error);
  return SAID_BY_SERVER.has(apiError.code) && apiError.message ? apiError.message : describeError(apiError);
}

export function createAiSkillsApi(http: HttpClient, siteId: string) {
  const site = { siteId };
  const runSkill = async (name: string, args: Record<string, unknown>): Promise<SkillOutcome> =>
    (await http.request(`/ai/skills/${segment(name)}`, { ...site, method: 'POST', body: args, schema: RunSkillResponse })).data;
  return {
    /** Semantic search across the site's collections; `meta.pending` counts items not embedded yet. */
    async search({ q, limit, collection, signal }: { q: string; limit?: number; collection?: string; signal?: AbortSignal }) {
      return http.request('/ai/search', {
        ...site,
        query: { q, limit, collection },
        schema: SearchResponse,
        ...(signal ? { signal } : {}),
      });
    },
    runSkill,
    /** aiSuggestField: a Field the collection does not have yet, with a rationale and the similar fields. Creates nothing. */
    async suggestField(collection: string, description: string): Promise<SuggestFieldData> {
      return executedData(await runSkill('aiSuggestField', { collection, description }), SuggestFieldData);
    },
    /** aiContentAssist: a value for one field; the caller puts it in the form, nothing is saved. */
    async assist(request: {
      collection: string;
      field: string;
      instruction: string;
      itemId?: string | undefined;
    }): Promise<ContentAssistData> {
      const { itemId, ...rest } = request;
      return executedData(await runSkill('aiContentAssist', itemId ? { ...rest, itemId } : rest), ContentAssistData);
    },
  };
}
