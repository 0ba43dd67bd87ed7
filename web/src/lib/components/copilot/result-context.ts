// What the Copilot's result cards need from the panel without threading it through every message: collection labels,
// and whether a model is connected (offline, retrieval answers are "closest existing text", not drafts).
import { getContext, setContext } from 'svelte';

export interface CopilotResultContext {
  /** A collection's label for editors (its name when it has none). */
  labelOf: (collection: string) => string;
  /** No language model is connected: the echo planner answers, and the RAG skills answer from retrieval alone. */
  offline: () => boolean;
}

const KEY = Symbol('copilot-results');
const FALLBACK: CopilotResultContext = { labelOf: (collection) => collection, offline: () => false };

export function setCopilotResultContext(context: CopilotResultContext): void {
  setContext(KEY, context);
}

/** The panel's context, or names as labels and "online" where a result is shown outside a panel (unit tests). */
export function copilotResultContext(): CopilotResultContext {
  return getContext<CopilotResultContext | undefined>(KEY) ?? FALLBACK;
}
