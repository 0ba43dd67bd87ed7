// Builds the Express app: request context → CORS → health → API docs → /api/v1 → Studio → 404 → error envelope.
import express, { type RequestHandler, type Router } from 'express';
import type { Logger } from '../logger.js';
import { createErrorMiddleware, notFoundHandler } from './error-middleware.js';
import type { DependencyCheck } from '../infrastructure/dependency-check.js';
import { createHealthRouter } from './health.router.js';
import { createDocsRouter } from './openapi/docs.router.js';
import { requestContext } from './request-context.js';
import { TRUSTED_PROXIES } from './trusted-origin.js';
import { studioCors } from './studio-cors.js';

export const JSON_BODY_LIMIT = '256kb';

export interface HttpAppOptions {
  logger: Logger;
  dependencies: DependencyCheck[];
  /** Everything under /api/v1; it parses its own JSON bodies (limit JSON_BODY_LIMIT). */
  api: Router;
  /** Serves the built Studio for every other path (all-in-one mode). */
  studio?: RequestHandler;
  /** Operators' pages outside the API (the queue dashboard), each doing its own authentication. */
  admin?: Router;
  /** POST /mcp for outside agents (it does its own authentication). */
  mcp?: Router;
  /** STUDIO_ORIGIN: the one origin allowed cross-origin (with credentials). */
  studioOrigin?: string | undefined;
}

export function createHttpApp({ logger, dependencies, api, studio, studioOrigin, admin, mcp }: HttpAppOptions): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', TRUSTED_PROXIES);
  app.use(requestContext(logger));
  app.use(studioCors(studioOrigin));
  app.use(createHealthRouter({ dependencies }));
  // Public: the API's description and reference need no credentials.
  app.use(createDocsRouter());
  if (admin) app.use(admin);
  if (mcp) app.use(mcp);
  // The api router parses JSON bodies itself, after authentication: no credentials is a 401 even for a malformed body.
  app.use('/api/v1', api, notFoundHandler);
  if (studio) app.use(studio);
  app.use(notFoundHandler);
  app.use(createErrorMiddleware({ dependencies }));
  return app;
}
