// Everything under /api/v1: login, then authenticate → body → routes; site-scoped routes behind tenancy.
import { type Request, Router } from 'express';
import type { IdempotencyStore } from '../store/idempotency.store.js';
import type { Services } from '../services/index.js';
import { createLoginRouter, createSessionRouter } from './auth.router.js';
import { authenticate } from './authenticate.js';
import { type SessionCookie, sessionCookie } from './session-cookie.js';
import { createCollectionsRouter } from './collections.router.js';
import { idempotency } from './idempotency.js';
import { createItemsRouter } from './items.router.js';
import { jsonBody } from './json-body.js';
import { createMembersRouter } from './members.router.js';
import { createSitesRouter } from './sites.router.js';
import { tenancy } from './tenancy.js';
import { createUsersRouter } from './users.router.js';

/** A router of another feature (the Copilot's `/ai`) that acts in the X-Site-Id site. */
export interface SiteRouter {
  path: string;
  router: Router;
}

export interface ApiRouterOptions {
  services: Pick<Services, 'auth' | 'access' | 'users' | 'sites' | 'members' | 'collections' | 'fields' | 'items'>;
  studioOrigin?: string | undefined;
  /** The Studio's session cookie (Secure and `__Host-` behind an https PUBLIC_URL). */
  cookie?: SessionCookie;
  /** Where Idempotency-Key records live (API.md "Safe retries"). */
  idempotency: { store: IdempotencyStore; leaseMs: number; fingerprintKey: string | Buffer };
  /** Mounted at `path` after authentication, body parsing and tenancy. */
  siteRouters?: SiteRouter[];
  /** What GET /auth/me tells the Studio about the Copilot (its planner's provider). */
  copilot?: { provider: string };
}

const SITE_SCOPED_PATHS = ['/members', '/collections', '/items'];

/** Creates whose document carries the request's operation id: a retry after a lost run finds what it stored. */
const RESUMABLE_CREATES = [/^\/items\/[^/]+\/?$/, /^\/collections\/?$/, /^\/collections\/[^/]+\/fields\/?$/];

function isResumableCreate(request: Request): boolean {
  return request.method === 'POST' && RESUMABLE_CREATES.some((pattern) => pattern.test(request.path));
}

export function createApiRouter({
  services,
  studioOrigin,
  cookie = sessionCookie(undefined),
  idempotency: retries,
  siteRouters = [],
  copilot,
}: ApiRouterOptions): Router {
  const router = Router();
  const siteTenancy = tenancy({ access: services.access });
  router.use(createLoginRouter({ auth: services.auth, jsonBody: jsonBody(), cookie }));

  router.use(authenticate({ auth: services.auth, studioOrigin, cookie }));
  router.use(jsonBody());
  // Site membership before any replay: a stored response goes only to a member of the site it was made in.
  const sitePaths = [...new Set([...SITE_SCOPED_PATHS, ...siteRouters.map(({ path }) => path)])];
  router.use(sitePaths, siteTenancy);
  router.use(idempotency({ ...retries, resumable: isResumableCreate }));
  router.use(createSessionRouter({ auth: services.auth, cookie, ...(copilot ? { copilot } : {}) }));
  router.use(createUsersRouter({ users: services.users, tenancy: siteTenancy }));
  router.use(createSitesRouter({ sites: services.sites }));

  router.use(createMembersRouter({ members: services.members }));
  router.use(createCollectionsRouter({ collections: services.collections, fields: services.fields }));
  router.use(createItemsRouter({ items: services.items }));
  for (const { path, router: siteRouter } of siteRouters) router.use(path, siteRouter);

  return router;
}
