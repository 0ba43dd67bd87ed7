// The harness: the gate for model tool calls, and the decisions on what it gated.
export * from './ai-secure-harness.js';
export * from './approval-executor.js';
export * from './decide-approval.js';
export * from './run-approval.js';
export * from './skill-executors.js';
export { describeFailure, type Failure } from './describe-failure.js';
