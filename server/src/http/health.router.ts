// Liveness (/healthz) and readiness (/readyz: every dependency answers) probes.
import { HealthResponse, ReadyResponse } from '@lumibase/shared';
import type { Router } from 'express';
import type { DependencyCheck } from '../infrastructure/dependency-check.js';
import { declaredRouter } from './mount-route.js';
import { declareRoute } from './route.js';

const CHECK_TIMEOUT_MS = 2000;

export const HEALTH_ROUTES = {
  live: declareRoute({
    method: 'get',
    path: '/healthz',
    summary: 'Liveness: the process is up',
    tag: 'Health',
    auth: 'public',
    success: { status: 200, description: 'Up', schema: HealthResponse },
  }),
  ready: declareRoute({
    method: 'get',
    path: '/readyz',
    summary: 'Readiness: MongoDB and Redis answer',
    tag: 'Health',
    auth: 'public',
    success: { status: 200, description: 'Ready (503 with the same shape when a dependency is down)', schema: ReadyResponse },
  }),
};

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
  return declaredRouter({ base: '' })
    .route(HEALTH_ROUTES.live, (_input, _request, response) => {
      response.json({ data: { status: 'ok' } });
    })
    .route(HEALTH_ROUTES.ready, async (_input, request, response) => {
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
    }).router;
}
