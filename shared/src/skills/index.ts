// The Copilot's skills: definitions, catalog, argument parsing and tool formats.
// Individual skills are reached through SKILLS (SKILLS.createItem), not exported one by one, so
// their names cannot collide with other contracts in the package's flat export.
export * from './define-skill.js';
export * from './catalog.js';
export * from './parse-skill-arguments.js';
export { LONG_TEXT_MAX } from './arguments.js';
export * from './tools.js';
export * from './outcome.js';
export * from './skill-label.js';
