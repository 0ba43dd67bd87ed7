// The server's domain as a library: what the worker and all-in-one processes compose from.
export { type Config, ConfigError, describeConfig, loadConfig, SETTINGS, studioUrl } from './config.js';
export { configTable } from './config-table.js';
export { type Infrastructure, startInfrastructure } from './infrastructure/start-infrastructure.js';
export { exitWithStartupError, stopOnSignals } from './lifecycle.js';
export { createLogger, type Logger } from './logger.js';
export { loadStudioHandler } from './http/studio.js';
export { type ComposedApi, composeApi, type RunningApi } from './compose-api.js';
export { type ComposedWorkers, composeWorkers, type RunningWorkers } from './compose-workers.js';
export type { CompositionParts, JobRunner } from './compose-parts.js';
export type { SkillExecutors } from './approvals/skill-executors.js';
export { socketIoKey } from './realtime/socket-server.js';
