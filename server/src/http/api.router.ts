// Everything under /api/v1: login, then authenticate → body → routes; site-scoped routes behind tenancy. Which paths
// tenancy guards and which creates a retry may resume come from the route declarations (routes.ts).
import { Router } from 'express';
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
import type { MountedRouter } from './mount-route.js';
import { resumableRequest } from './resumable-request.js';
import { API_BASE } from './route.js';
import { ROUTES } from './routes.js';
import { siteScopedPrefixes } from './site-scoped-prefixes.js';
import { createSitesRouter } from './sites.router.js';
import { tenancy } from './tenancy.js';
import { createUsersRouter } from './users.router.js';

/** A router of another feature (the Copilot's), mounted where its declarations say; it acts in the X-Site-Id site. */
export type SiteRouter = MountedRouter;

export interface ApiRouterOptions {
  services: Pick<Services, 'auth' | 'access' | 'users' | 'sites' | 'members' | 'collections' | 'fields' | 'items'>;
  studioOrigin?: string | undefined;
  /** The Studio's session cookie (Secure and `__Host-` behind an https PUBLIC_URL). */
  cookie?: SessionCookie;
  /** Where Idempotency-Key records live (docs/API.md "Safe retries"). */
  idempotency: { store: IdempotencyStore; leaseMs: number; fingerprintKey: string | Buffer };
  /** Mounted at `path` after authentication, body parsing and tenancy (`path` must lie under a site-scoped prefix). */
  siteRouters?: SiteRouter[];
  /** What GET /auth/me tells the Studio about the Copilot (its planner's provider). */
  copilot?: { provider: string };
}

/** The first segments of the routes declared `site: true` (`/ai`, `/collections`, …): tenancy runs for every path under them. */
export const SITE_SCOPED_PREFIXES = siteScopedPrefixes(ROUTES, API_BASE);

/** Creates whose document carries the request's operation id (declared `resumable`): a retry after a lost run finds what it stored. */
export const isResumableCreate = resumableRequest(ROUTES, API_BASE);

/** A site router outside the guarded prefixes would run without tenancy: refused when the server is composed. */
function underSitePrefix({ path }: SiteRouter): boolean {
  return SITE_SCOPED_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
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
  const unguarded = siteRouters.find((siteRouter) => !underSitePrefix(siteRouter));
  if (unguarded) throw new TypeError(`${unguarded.path} is mounted as a site router but no site-scoped route is declared under it`);
  router.use(SITE_SCOPED_PREFIXES, siteTenancy);
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
