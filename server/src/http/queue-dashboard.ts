// bull-board at /admin/queues: the BullMQ queues LumiBase runs, for superadmins only (401 without a session, 403 for others).
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import { Queue } from 'bullmq';
import { type RequestHandler, Router } from 'express';
import { Redis } from 'ioredis';
import type { AuthService } from '../services/auth.service.js';
import { authenticate } from './authenticate.js';
import { accessChecks } from './mount-route.js';
import { declareRoute } from './route.js';
import type { SessionCookie } from './session-cookie.js';

export const QUEUE_DASHBOARD_PATH = '/admin/queues';

/** The dashboard is one documented entry point; bull-board's own routes under it are its business. */
export const QUEUE_DASHBOARD_ROUTES = {
  dashboard: declareRoute({
    method: 'get',
    path: QUEUE_DASHBOARD_PATH,
    summary: 'Queue dashboard (bull-board): the BullMQ queues and their jobs',
    tag: 'Operations',
    auth: 'session',
    access: { superadmin: 'only' },
    success: { status: 200, description: 'An HTML page; its own JSON API lives under /admin/queues/api', contentType: 'text/html' },
  }),
};

export interface QueueDashboardOptions {
  auth: Pick<AuthService, 'authenticate'>;
  studioOrigin?: string | undefined;
  cookie?: SessionCookie;
  redisUrl: string;
  prefix: string;
  /** The queues to show (those this deployment runs). */
  queueNames: readonly string[];
}

export function createQueueDashboard({ auth, studioOrigin, cookie, redisUrl, prefix, queueNames }: QueueDashboardOptions) {
  // Its own connection: the dashboard's reads never compete with the producers' fail-fast connection.
  const connection = new Redis(redisUrl, { maxRetriesPerRequest: 1, lazyConnect: true });
  connection.on('error', () => {
    // The dashboard shows Redis being down; the server's own checks log it.
  });
  const queues = queueNames.map((name) => new Queue(name, { connection, prefix }));
  const board = new ExpressAdapter().setBasePath(QUEUE_DASHBOARD_PATH);
  createBullBoard({ queues: queues.map((queue) => new BullMQAdapter(queue, { readOnlyMode: false })), serverAdapter: board });
  const dashboard = board.getRouter() as RequestHandler;

  const router = Router();
  // The same authentication as the API: a cookie-authenticated action (retry, clean) must come from the Studio's origin.
  router.use(
    QUEUE_DASHBOARD_PATH,
    authenticate({ auth, studioOrigin, ...(cookie ? { cookie } : {}) }),
    ...accessChecks(QUEUE_DASHBOARD_ROUTES.dashboard),
    dashboard,
  );
  return {
    router,
    async close() {
      await Promise.all(queues.map((queue) => queue.close()));
      connection.disconnect();
    },
  };
}
