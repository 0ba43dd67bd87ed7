// The Copilot's use cases: chat, approvals, conversations and audit. Request-agnostic: callers pass the site.
export * from './approvals.service.js';
export * from './audit.service.js';
export * from './chat-rate-limiter.js';
export * from './chat.service.js';
export * from './conversations.service.js';
export { COPILOT_SYSTEM_PROMPT, plannerMessages, toolContent } from './planner-messages.js';
export * from './policy.service.js';
export * from './run-skill.service.js';
