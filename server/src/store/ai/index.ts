// The Copilot's persistence: approvals, audit, conversations and messages, per site.
export * from './ai-models.js';
export * from './ai-stores.js';
export * from './approval.store.js';
export * from './audit.store.js';
export * from './conversation.store.js';
export * from './operation.store.js';
export { decodeJson, encodeJson, JsonEncodingError } from './json-codec.js';
export { parseRecordId } from './record-id.js';
