// Mounts declared routes on an Express router: the access check, then the guards, then the parsed input, then the handler.
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { Router } from 'express';
import { parseInput } from './parse-input.js';
import { requireCapabilities, requireSuperadmin } from './require-capabilities.js';
import { API_BASE, type RouteDeclaration, type RouteHandler, type RouteInput } from './route.js';

export interface DeclaredRouterOptions {
  /** Where the router is mounted in the app (`/api/v1/ai`): each declared path starts with it. */
  base: string;
  /** Runs for a caller who is not a superadmin on a `superadmin: 'or-capabilities'` route. */
  tenancy?: RequestHandler;
}

export interface DeclaredRouter {
  router: Router;
  /** Where it is mounted in the app (the `base` it was made with). */
  base: string;
  /** Mounts `declaration`; `guards` run after the access check and before the input is parsed (a collection name → 404). */
  route<D extends RouteDeclaration>(declaration: D, handler: RouteHandler<D>, guards?: RequestHandler[]): DeclaredRouter;
}

/** The checks the declaration's `access` stands for, in the order they run. */
export function accessChecks(declaration: RouteDeclaration, tenancy?: RequestHandler): RequestHandler[] {
  const { access = {} } = declaration;
  const capabilities = [...(access.capabilities ?? [])];
  if (access.superadmin === 'only') return [requireSuperadmin()];
  if (access.superadmin === 'or-capabilities') {
    if (!tenancy) throw new TypeError(`${declaration.method} ${declaration.path}: a site admin's access needs tenancy`);
    const siteAdmin = Router().use(tenancy, requireCapabilities(...capabilities));
    return [
      (request: Request, response: Response, next: NextFunction) => {
        if (request.context.user?.isSuperadmin) next();
        else siteAdmin(request, response, next);
      },
    ];
  }
  return capabilities.length > 0 ? [requireCapabilities(...capabilities)] : [];
}

/** The mount the declaration was written for: a router mounted elsewhere would answer paths the document does not list. */
function mountCheck(declaration: RouteDeclaration, base: string): RequestHandler {
  const expected = base.toLowerCase();
  const what = `${declaration.method} ${declaration.path}`;
  return (request: Request, _response: Response, next: NextFunction) => {
    if (request.baseUrl.toLowerCase() !== expected) throw new TypeError(`${what} is mounted at ${request.baseUrl}, not ${base}`);
    if (declaration.auth === 'session' && !request.context.user) throw new TypeError(`${what} ran without authenticate`);
    if (declaration.site && !request.context.site) throw new TypeError(`${what} is site-scoped but ran without tenancy`);
    next();
  };
}

function inputOf<D extends RouteDeclaration>(declaration: D, request: Request): RouteInput<D> {
  const params = declaration.params
    ? { ...request.params, ...parseInput(declaration.params, request.params, 'params') }
    : { ...request.params };
  const query = declaration.query ? parseInput(declaration.query, request.query, 'query') : undefined;
  const raw: unknown = declaration.bodyOptional ? (request.body ?? {}) : request.body;
  const body = declaration.body ? parseInput(declaration.body, raw, 'body') : undefined;
  return { params, query, body } as RouteInput<D>;
}

export function declaredRouter({ base, tenancy }: DeclaredRouterOptions): DeclaredRouter {
  const router = Router();
  const declared: DeclaredRouter = {
    router,
    base,
    route(declaration, handler, guards = []) {
      if (!declaration.path.startsWith(base)) throw new TypeError(`${declaration.path} is not under ${base}`);
      const path = declaration.path.slice(base.length) || '/';
      router[declaration.method](
        path,
        mountCheck(declaration, base),
        ...accessChecks(declaration, tenancy),
        ...guards,
        async (request: Request, response: Response) => {
          await handler(inputOf(declaration, request), request, response);
        },
      );
      return declared;
    },
  };
  return declared;
}

/**
 * Where a router of `declarations` is mounted: the literal segments their paths share, up to the first parameter
 * (`/api/v1/items/:collection/:id/revisions` and `…/restore` → `/api/v1/items`; one route alone → its own path up to
 * a parameter). A mount path is thus written once, in the declarations' paths.
 */
export function mountPathOf(declarations: Record<string, RouteDeclaration>): string {
  const literal = Object.values(declarations).map(({ path }) => {
    const segments = path.split('/').slice(1);
    const parameter = segments.findIndex((segment) => /[:*{]/.test(segment));
    return parameter === -1 ? segments : segments.slice(0, parameter);
  });
  if (literal.length === 0) throw new TypeError('a router needs a declaration');
  const shared: string[] = [];
  for (const [index, segment] of literal[0]!.entries()) {
    if (!literal.every((segments) => segments[index] === segment)) break;
    shared.push(segment);
  }
  return `/${shared.join('/')}`;
}

/** A router mounted below the API's base (a feature's `/ai`, `/trash`), at the path relative to API_BASE. */
export interface MountedRouter {
  /** `/ai`: below API_BASE. */
  path: string;
  router: Router;
}

/** `declared`, as the API router mounts it: its base relative to API_BASE. */
export function mountedRouter({ base, router }: DeclaredRouter): MountedRouter {
  if (!base.startsWith(`${API_BASE}/`)) throw new TypeError(`${base} is not below ${API_BASE}`);
  return { path: base.slice(API_BASE.length), router };
}
