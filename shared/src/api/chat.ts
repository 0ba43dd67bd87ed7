// POST /ai/chat: one admin message in, the planner's reply and each skill call's outcome out.
import { z } from 'zod';
import { SkillOutcome } from '../skills/outcome.js';

export const CHAT_MESSAGE_MAX = 2000;

export const ChatRequest = z.object({
  message: z.string().trim().min(1).max(CHAT_MESSAGE_MAX),
  conversationId: z.string().min(1).max(200).optional(),
});
export type ChatRequest = z.infer<typeof ChatRequest>;

/** The first outcome's fields at the top level, every outcome (in call order) in `results`. */
export const ChatResponse = z.intersection(SkillOutcome, z.object({ conversationId: z.string(), results: z.array(SkillOutcome) }));
export type ChatResponse = z.infer<typeof ChatResponse>;
