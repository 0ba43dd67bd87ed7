// Builds the Express app: request context → health → /api/v1 → Studio → 404 → error envelope.
import express, { type RequestHandler, type Router } from 'express';
import type { Logger } from '../logger.js';
import { errorMiddleware, notFoundHandler } from './error-middleware.js';
import { createHealthRouter, type DependencyCheck } from './health.router.js';
import { requestContext } from './request-context.js';

export const JSON_BODY_LIMIT = '256kb';

export interface HttpAppOptions {
  logger: Logger;
  dependencies: DependencyCheck[];
  /** Everything under /api/v1. */
  api: Router;
  /** Serves the built Studio for every other path (all-in-one mode). */
  studio?: RequestHandler;
}

export function createHttpApp({ logger, dependencies, api, studio }: HttpAppOptions): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback');
  app.use(requestContext(logger));
  app.use(createHealthRouter({ dependencies }));
  app.use('/api/v1', express.json({ limit: JSON_BODY_LIMIT }), api, notFoundHandler);
  if (studio) app.use(studio);
  app.use(notFoundHandler);
  app.use(errorMiddleware);
  return app;
}
