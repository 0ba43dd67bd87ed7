// One route, declared once: its method, path, who may call it, what it takes and what it answers. The router mounts the
// declaration (mount-route.ts: validation and access checks come from it) and the OpenAPI document describes it
// (openapi/openapi-document.ts): neither can say something the other does not.
import type { Capability } from '@lumibase/shared';
import type { Request, Response } from 'express';
import type { z } from 'zod';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * Rules a service applies to what it loads, past the checks a route can make before (the approval's skill, the user
 * being changed): named here so that the document states each one in the same words.
 */
export const SERVICE_CHECKS = {
  'self-or-superadmin': 'superadmin; or the user themself for name and password (which then needs currentPassword)',
  'not-self': 'not oneself',
  'grants-held-only': 'only capabilities the caller holds',
  'skill-capabilities': 'every capability the skill requires',
  'email-unless-superadmin': '`email` is required unless the caller is a superadmin',
  'trash-read': '`schema:read` for collections and fields, `content:read` for items',
  'trash-write': '`schema:write` for a collection or a field, `content:write` for an item',
} as const;
export type ServiceCheck = keyof typeof SERVICE_CHECKS;

/** Who may call a route, checked before its input is parsed (without it: any signed-in caller; any member when site-scoped). */
export interface RouteAccess {
  /** All of these, held in the X-Site-Id site (a superadmin holds `*`). */
  readonly capabilities?: readonly Capability[];
  /** `only`: a superadmin alone. `or-capabilities`: a superadmin, or a holder of `capabilities` in the X-Site-Id site. */
  readonly superadmin?: 'only' | 'or-capabilities';
  /** What the service checks further. */
  readonly checks?: readonly ServiceCheck[];
}

export interface RouteSuccess {
  readonly status: number;
  readonly description: string;
  /** The JSON body (`{ data, meta? }`); absent for 204 and for what is not JSON. */
  readonly schema?: z.ZodType;
  /** Not JSON: the page or document served as is. */
  readonly contentType?: string;
}

export interface RouteDeclaration {
  readonly method: HttpMethod;
  /** The full path the app answers, in Express syntax (`/api/v1/items/:collection/:id`; an optional segment `/x{/:id}`). */
  readonly path: string;
  readonly summary: string;
  readonly tag: string;
  /** `public`: no credentials; `session`: a bearer token or the Studio's session cookie. */
  readonly auth: 'public' | 'session';
  /** Acts in the X-Site-Id site (tenancy has run before the route): its path's first segment is site-scoped (site-scoped-prefixes.ts). */
  readonly site?: boolean;
  /**
   * A create whose one-document write carries the request's operation id: when an earlier run with the same
   * Idempotency-Key left no response, a retry runs it again and finds what that run stored (resumable-request.ts).
   */
  readonly resumable?: true;
  readonly access?: RouteAccess;
  /** Path parameters that must be more than a non-empty string (each is otherwise a string). */
  readonly params?: z.ZodObject;
  readonly query?: z.ZodObject;
  readonly body?: z.ZodType;
  /** A request without a body counts as `{}`. */
  readonly bodyOptional?: boolean;
  readonly success: RouteSuccess;
  /** Error statuses of this route beyond those every route of its kind has (openapi-document.ts `errorStatuses`). */
  readonly errors?: readonly number[];
}

/** `'/items/:collection{/:id}'` → `'collection' | 'id'`. */
type ParamNames<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}`
  ? Trimmed<Name> | ParamNames<`/${Rest}`>
  : Path extends `${string}:${infer Name}`
    ? Trimmed<Name>
    : never;
type Trimmed<Name extends string> = Name extends `${infer Bare}}${string}` ? Bare : Name;

type Parsed<Schema> = Schema extends z.ZodType ? z.output<Schema> : undefined;

/** What a handler is given: its input, parsed by the declared schemas. */
export interface RouteInput<D extends RouteDeclaration> {
  params: Omit<Record<ParamNames<D['path']>, string>, keyof Parsed<D['params']>> &
    (D['params'] extends z.ZodType ? z.output<D['params']> : unknown);
  query: Parsed<D['query']>;
  body: Parsed<D['body']>;
}

export type RouteHandler<D extends RouteDeclaration> = (input: RouteInput<D>, request: Request, response: Response) => unknown;

/** A declaration, its literal path kept so that handlers get typed params. */
export function declareRoute<const D extends RouteDeclaration>(declaration: D): D {
  return declaration;
}

/** The route's access in words, for the document: derived from the declaration, never written as prose. */
export function describeAccess(access: RouteAccess | undefined): string | undefined {
  if (!access) return undefined;
  const capabilities = (access.capabilities ?? []).map((capability) => `\`${capability}\``).join(' and ');
  const who =
    access.superadmin === 'only'
      ? 'superadmin'
      : access.superadmin === 'or-capabilities'
        ? `superadmin, or ${capabilities} in the X-Site-Id site`
        : capabilities;
  const parts = [who, ...(access.checks ?? []).map((check) => SERVICE_CHECKS[check])].filter((part) => part !== '');
  return parts.length > 0 ? parts.join('; ') : undefined;
}

/** Where the JSON API is mounted. */
export const API_BASE = '/api/v1';

export const NO_CONTENT = { status: 204, description: 'Done; no body' } as const satisfies RouteSuccess;
