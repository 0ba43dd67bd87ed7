// POST /ai/chat: one admin message in, the planner's reply and each skill call's outcome out.
import { z } from 'zod';
import { SkillOutcome } from '../skills/outcome.js';

export const CHAT_MESSAGE_MAX = 2000;

export const ChatRequest = z.object({
  message: z.string().trim().min(1).max(CHAT_MESSAGE_MAX),
  conversationId: z.string().min(1).max(200).optional(),
});
export type ChatRequest = z.infer<typeof ChatRequest>;

export const TokenUsage = z.object({ inputTokens: z.number().int().min(0), outputTokens: z.number().int().min(0) });
export type TokenUsage = z.infer<typeof TokenUsage>;

/**
 * The first outcome's fields at the top level, every outcome (in call order) in `results`; `reply` is
 * the model's final text of the turn and `usage` the tokens of its model calls (remote providers).
 * The server always sends `reply`; it is optional here so that clients read older servers too.
 */
export const ChatResponse = z.intersection(
  SkillOutcome,
  z.object({ conversationId: z.string(), results: z.array(SkillOutcome), reply: z.string().optional(), usage: TokenUsage.optional() }),
);
export type ChatResponse = z.infer<typeof ChatResponse>;
