// One declared route as an OpenAPI operation: its parameters, body, access and every status it can answer.
import { ErrorEnvelope } from '@lumibase/shared';
import { z } from 'zod';
import type { ZodOpenApiOperationObject, ZodOpenApiResponseObject, ZodOpenApiResponsesObject } from 'zod-openapi';
import { STATUS_BY_CODE } from '../error-middleware.js';
import { describeAccess, type RouteDeclaration } from '../route.js';

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Bad input (`VALIDATION_FAILED`, with `details`)',
  401: 'No or bad credentials (`UNAUTHENTICATED`)',
  403: 'Not allowed here (`FORBIDDEN`); also a record or site outside the caller’s reach',
  404: 'No such named record or route (`NOT_FOUND`)',
  409: 'Conflicts with the current state (`CONFLICT`)',
  413: 'Body too large (`PAYLOAD_TOO_LARGE`)',
  429: 'Too many requests (`RATE_LIMITED`, with `Retry-After`)',
  500: 'Unexpected failure (`INTERNAL`), never for bad input',
  503: 'MongoDB or Redis unavailable (`UNAVAILABLE`, with `Retry-After`)',
};

const CODE_BY_STATUS = Object.fromEntries(Object.entries(STATUS_BY_CODE).map(([code, status]) => [status, code]));

/** Express `/x/:id` → OpenAPI `/x/{id}`; an optional segment (`/x{/:id}`) is two paths, `/x` and `/x/{id}`. */
export function openApiPaths(expressPath: string): string[] {
  const optional = /\{([^{}]*)\}/.exec(expressPath);
  if (!optional) return [expressPath.replace(/:([A-Za-z0-9_]+)/g, '{$1}')];
  const before = expressPath.slice(0, optional.index);
  const after = expressPath.slice(optional.index + optional[0].length);
  return [...openApiPaths(before + after), ...openApiPaths(before + optional[1] + after)];
}

/** Whether the declaration restricts callers beyond signing in (and membership, when site-scoped). */
function restricted({ access }: RouteDeclaration): boolean {
  return Boolean(access && ((access.capabilities?.length ?? 0) > 0 || access.superadmin || (access.checks?.length ?? 0) > 0));
}

/** The statuses a route answers with the error envelope: those its kind always has, plus its own. */
export function errorStatuses(route: RouteDeclaration): number[] {
  const statuses = new Set<number>([500]);
  const add = (...more: number[]) => {
    for (const status of more) statuses.add(status);
  };
  if (route.auth !== 'public') add(401, 503);
  if (route.site || route.access?.superadmin === 'or-capabilities') add(400, 403);
  if (restricted(route)) add(403);
  if (route.body) add(400, 413);
  if (route.query || route.params) add(400);
  if (route.auth !== 'public' && route.method !== 'get') add(403); // a cookie-authenticated write from another origin
  for (const status of route.errors ?? []) statuses.add(status);
  return [...statuses].sort((a, b) => a - b);
}

function responsesOf(route: RouteDeclaration): ZodOpenApiResponsesObject {
  const { success } = route;
  const mediaType = success.contentType ?? 'application/json';
  const responses: Record<string, ZodOpenApiResponseObject> = {
    [String(success.status)]: {
      description: success.description,
      ...(success.schema || success.contentType ? { content: { [mediaType]: { schema: success.schema ?? z.string() } } } : {}),
    },
  };
  for (const status of errorStatuses(route)) {
    responses[String(status)] = {
      description: ERROR_DESCRIPTIONS[status] ?? 'Error',
      content: {
        'application/json': {
          schema: ErrorEnvelope,
          example: {
            error: { code: CODE_BY_STATUS[status], message: ERROR_DESCRIPTIONS[status], requestId: 'c0ffee00-0000-4000-8000-000000000000' },
          },
        },
      },
    };
  }
  return responses as ZodOpenApiResponsesObject;
}

const SiteIdHeader = z.string().min(1).meta({
  description: 'The site the request acts in. Missing → 400; unknown, malformed or not a member → 403.',
  example: '665f1c2e8b3e4a0012345678',
});

/** The path parameters of `openApiPath`: each a non-empty string unless the declaration says more. */
function pathParameters(route: RouteDeclaration, openApiPath: string): z.ZodObject | undefined {
  const names = [...openApiPath.matchAll(/\{([A-Za-z0-9_]+)\}/g)].map((match) => match[1] as string);
  if (names.length === 0) return undefined;
  const declared = route.params?.shape ?? {};
  return z.object(Object.fromEntries(names.map((name) => [name, declared[name] ?? z.string().min(1)])));
}

function headerParameters(route: RouteDeclaration): z.ZodObject | undefined {
  if (route.site) return z.object({ 'x-site-id': SiteIdHeader });
  if (route.access?.superadmin === 'or-capabilities') return z.object({ 'x-site-id': SiteIdHeader.optional() });
  return undefined;
}

/** The declared access, for a client to read: `x-access` as declared, and the same in words in the description. */
function accessOf(route: RouteDeclaration) {
  const { capabilities = [], superadmin, checks = [] } = route.access ?? {};
  return { capabilities: [...capabilities], ...(superadmin ? { superadmin } : {}), checks: [...checks] };
}

/** `get /api/v1/items/:collection/:id` → `getItemsByCollectionById`: stable, readable names for generated clients. */
export function operationId({ method }: Pick<RouteDeclaration, 'method'>, openApiPath: string): string {
  const words = openApiPath
    .replace(/^\/api\/v1/, '')
    .split(/[/._-]/)
    .filter(Boolean)
    .map((word) => word.replace(/^\{(.*)\}$/, 'by-$1'))
    .flatMap((word) => word.split('-'));
  return method + words.map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join('');
}

export function operationObject(route: RouteDeclaration, openApiPath: string): ZodOpenApiOperationObject {
  const access = describeAccess(route.access) ?? (route.site ? 'any member' : undefined);
  const description = [access ? `Access: ${access}.` : undefined, route.site ? 'Site-scoped (X-Site-Id).' : undefined]
    .filter(Boolean)
    .join(' ');
  const path = pathParameters(route, openApiPath);
  const header = headerParameters(route);
  return {
    operationId: operationId(route, openApiPath),
    summary: route.summary,
    ...(description ? { description } : {}),
    tags: [route.tag],
    security: route.auth === 'public' ? [] : [{ bearerAuth: [] }, { cookieAuth: [] }],
    'x-access': accessOf(route),
    requestParams: {
      ...(path ? { path } : {}),
      ...(route.query ? { query: route.query } : {}),
      ...(header ? { header } : {}),
    },
    ...(route.body ? { requestBody: { required: !route.bodyOptional, content: { 'application/json': { schema: route.body } } } } : {}),
    responses: responsesOf(route),
  };
}
