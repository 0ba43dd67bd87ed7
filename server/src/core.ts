// The server's domain as a library: what the worker and all-in-one processes compose from.
export { type Config, ConfigError, describeConfig, loadConfig, SETTINGS, studioUrl } from './config.js';
export { configTable } from './config-table.js';
export { type Infrastructure, startInfrastructure } from './infrastructure/start-infrastructure.js';
export { exitWithStartupError, Lifecycle, type Part, runProcess, stopOnSignals } from './lifecycle.js';
export { createLogger, type Logger } from './logger.js';
export { loadStudioHandler } from './http/studio.js';
export { listen, openHttpServer, startApi, startDomain, startInfrastructurePart, startSkillExecutionQueue } from './compose-process.js';
export { composeJobHandlers, type RunningWorkers, startEmitter, startWorkers } from './compose-workers.js';
export type { JobHandler, JobHandlers } from './infrastructure/queue-table.js';
export type { SkillExecutors } from './skills/skill-executors.js';
export { socketIoKey } from './realtime/socket-server.js';
