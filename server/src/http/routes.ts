// Every route the server answers, as declared next to its handler: the OpenAPI document is built from this list, and
// the route tests walk it (a router mounts only declarations, and each checks it is mounted where it says).
import { AI_ROUTES } from './ai.router.js';
import { AI_SKILLS_ROUTES } from './ai-skills.router.js';
import { AI_NOTICES_ROUTES } from './ai-notices.router.js';
import { AUTH_ROUTES } from './auth.router.js';
import { COLLECTIONS_ROUTES } from './collections.router.js';
import { HEALTH_ROUTES } from './health.router.js';
import { ITEMS_ROUTES } from './items.router.js';
import { MEMBERS_ROUTES } from './members.router.js';
import { DOCS_ROUTES } from './openapi/docs.routes.js';
import { QUEUE_DASHBOARD_ROUTES } from './queue-dashboard.js';
import { REVISIONS_ROUTES } from './revisions.router.js';
import type { RouteDeclaration } from './route.js';
import { SEARCH_ROUTES } from './search.router.js';
import { SITES_ROUTES } from './sites.router.js';
import { TRASH_ROUTES } from './trash.router.js';
import { USERS_ROUTES } from './users.router.js';
import { WEBHOOKS_ROUTES } from './webhooks.router.js';

export const ROUTES: readonly RouteDeclaration[] = [
  HEALTH_ROUTES,
  AUTH_ROUTES,
  USERS_ROUTES,
  SITES_ROUTES,
  MEMBERS_ROUTES,
  COLLECTIONS_ROUTES,
  ITEMS_ROUTES,
  AI_ROUTES,
  AI_SKILLS_ROUTES,
  AI_NOTICES_ROUTES,
  SEARCH_ROUTES,
  REVISIONS_ROUTES,
  TRASH_ROUTES,
  WEBHOOKS_ROUTES,
  DOCS_ROUTES,
  QUEUE_DASHBOARD_ROUTES,
].flatMap((group) => Object.values(group) as RouteDeclaration[]);
