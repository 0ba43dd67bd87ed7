// Liveness (/healthz) and readiness (/readyz: every dependency answers) probes.
import { Router } from 'express';
import type { DependencyCheck } from '../infrastructure/dependency-check.js';

const CHECK_TIMEOUT_MS = 2000;

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

export function createHealthRouter({ dependencies }: { dependencies: DependencyCheck[] }): Router {
  const router = Router();
  router.get('/healthz', (_request, response) => {
    response.json({ data: { status: 'ok' } });
  });
  router.get('/readyz', async (request, response) => {
    const results = await Promise.all(
      dependencies.map(async ({ name, check }) => {
        try {
          await withTimeout(check(), CHECK_TIMEOUT_MS);
          return { name, ok: true };
        } catch (error) {
          request.context.log.warn({ dependency: name, reason: (error as Error).message }, 'dependency not ready');
          return { name, ok: false };
        }
      }),
    );
    const ready = results.every((result) => result.ok);
    const checks = Object.fromEntries(results.map((result) => [result.name, result.ok ? 'ok' : 'down']));
    response.status(ready ? 200 : 503).json({ data: { status: ready ? 'ready' : 'unavailable', checks } });
  });
  return router;
}
