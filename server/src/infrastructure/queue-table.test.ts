import { describe, expect, it } from 'vitest';
import { createLogger } from '../logger.js';
import { type JobHandler, QUEUES, startQueueWorker } from './queue-table.js';

const settings = { WORKER_CONCURRENCY: 4, JOB_LOCK_MS: 45_000, EMBEDDINGS_RATE_LIMIT_PER_MINUTE: 0 };

describe('the queue table', () => {
  it('runs each queue’s worker with the options its entry derives from the settings', () => {
    expect(QUEUES.skillExecution.worker.options(settings)).toEqual({ concurrency: 4, lockDuration: 45_000, stalledInterval: 45_000 });
    expect(QUEUES.embeddings.worker.options(settings)).toEqual({ concurrency: 4 });
    expect(QUEUES.embeddings.worker.options({ ...settings, EMBEDDINGS_RATE_LIMIT_PER_MINUTE: 120 })).toEqual({
      concurrency: 4,
      limiter: { max: 120, duration: 60_000 },
    });
    expect(QUEUES.webhooks.worker.options(settings)).toEqual({ concurrency: 1 });
    expect(QUEUES.copilotContinuation.worker.options(settings)).toEqual({ concurrency: 4 });
  });

  it('refuses to start a worker with no handler registered for its queue', () => {
    const missing = undefined as unknown as JobHandler;
    expect(() =>
      startQueueWorker('webhooks', {
        redisUrl: 'redis://127.0.0.1:1',
        prefix: 'never',
        logger: createLogger({ level: 'silent' }),
        settings,
        handler: missing,
      }),
    ).toThrow('no handler registered for the webhooks queue');
  });
});
