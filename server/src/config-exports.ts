// The configuration module alone, for tools and tests that need no connections.
export { type Config, ConfigError, describeConfig, loadConfig, SETTINGS } from './config.js';
export { configTable } from './config-table.js';
