// The server's domain as a library: what the workers and the all-in-one entry compose from.
export { type Config, ConfigError, describeConfig, loadConfig, SETTINGS, studioUrl } from './config.js';
export { configTable } from './config-table.js';
export { type Infrastructure, startInfrastructure } from './infrastructure/start-infrastructure.js';
export { exitWithStartupError, stopOnSignals } from './lifecycle.js';
export { createLogger, type Logger } from './logger.js';
export { loadStudioHandler } from './http/studio.js';
export { type RunningServer, startServer } from './start-server.js';
export { composeDomain, type Domain } from './compose-domain.js';
export { ApprovalJobRunner } from './approvals/approval-job-runner.js';
export { Reconciler } from './approvals/reconciler.js';
export { ExpirySweep } from './approvals/expiry-sweep.js';
export { TrashPurge } from './services/trash-purge.js';
export { createSkillExecutionQueue } from './approvals/skill-execution.queue.js';
export { createSkillExecutionWorker } from './approvals/skill-execution.worker.js';
export { SITE_EVENT_CHANNEL, socketIoKey } from './realtime/socket-server.js';
export { createWebhooksWorker } from './webhooks/webhooks.worker.js';
export { startEmbeddingsRunner } from './embeddings/embeddings-runner.js';
