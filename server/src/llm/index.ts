// Language-model planners behind one interface.
export * from './planner.js';
export * from './echo-planner.js';
export { ECHO_PHRASES, echoHelpText, matchEchoPhrase, normalizeEchoMessage } from './echo-phrases.js';
export * from './create-planner.js';
