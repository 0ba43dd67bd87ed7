// Providers that take the system prompt apart from the messages (Anthropic, Gemini) get it joined here.
import type { PlannerMessage } from './planner.js';

export function systemText(messages: readonly PlannerMessage[]): string {
  return messages
    .filter((message) => message.role === 'system')
    .map((message) => message.content)
    .join('\n\n');
}
