// The skill-execution job as the worker takes it: the seq its decision named reaches the worker's event log before
// the job runs (its first append then guesses the next seq), with the time the job was queued; a job naming none
// (queued by the reconciler, or by a server before this field) changes nothing.
import type { SkillExecutionJob } from '@lumibase/shared';
import type { Job } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../logger.js';
import { createSkillExecutionProcessor } from './skill-execution.processor.js';

const logger = createLogger({ level: 'silent' });

function job(data: SkillExecutionJob, timestamp: number): Job {
  return { id: 'j1', data, opts: { attempts: 3 }, attemptsMade: 0, attemptsStarted: 1, timestamp } as unknown as Job;
}

describe('the skill-execution processor', () => {
  it('hands the worker the seq the decision named, and when it was queued, before running the job', async () => {
    const order: string[] = [];
    const heard: [string, number, number][] = [];
    const process = createSkillExecutionProcessor({
      runner: {
        run: async () => {
          order.push('run');
          return 'approved';
        },
      },
      logger,
      heard: (siteId, seq, at) => {
        order.push('heard');
        heard.push([siteId, seq, at]);
      },
    });
    const queuedAt = Date.now() - 5;
    expect(await process(job({ siteId: 's1', approvalId: 'a1', attempt: 1, fresh: true, headSeq: 41 }, queuedAt))).toEqual({
      outcome: 'approved',
    });
    expect(heard).toEqual([['s1', 41, queuedAt]]);
    expect(order).toEqual(['heard', 'run']);

    await process(job({ siteId: 's1', approvalId: 'a2', attempt: 2 }, Date.now()));
    expect(heard).toHaveLength(1);
  });

  it('refuses a job whose seq is not a positive whole number, without running it', async () => {
    let ran = false;
    const process = createSkillExecutionProcessor({
      runner: {
        run: async () => {
          ran = true;
          return 'approved';
        },
      },
      logger,
      heard: () => {},
    });
    await expect(process(job({ siteId: 's1', approvalId: 'a1', attempt: 1, headSeq: 0 }, Date.now()))).rejects.toThrow(/malformed/);
    expect(ran).toBe(false);
  });
});
