// The route declaration is the single source: the OpenAPI document says of every declared route what the declaration
// says (path, method, input schemas, access), and the server enforces the same declaration (403 without a declared
// capability, 400 with details for a body its schema refuses).
import { CAPABILITIES, type Capability, ROLE_PRESETS } from '@lumibase/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';
import { buildOpenApiDocument } from './openapi/openapi-document.js';
import { openApiPaths } from './openapi/operation-object.js';
import { describeAccess, type RouteDeclaration } from './route.js';
import { ROUTES } from './routes.js';

interface JsonSchema {
  $ref?: string;
  type?: string;
  properties?: Record<string, unknown>;
  required?: string[];
}
interface Parameter {
  in: string;
  name: string;
  required?: boolean;
}
interface Operation {
  security: unknown[];
  description?: string;
  'x-access': unknown;
  parameters?: Parameter[];
  requestBody?: { required: boolean; content: { 'application/json': { schema: JsonSchema } } };
  responses: Record<string, unknown>;
}

const document = buildOpenApiDocument() as unknown as {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, JsonSchema> };
};

function resolved(schema: JsonSchema): JsonSchema {
  const name = schema.$ref?.replace('#/components/schemas/', '');
  return name ? resolved(document.components.schemas[name] as JsonSchema) : schema;
}

function requiredKeys(schema: z.ZodObject): string[] {
  return Object.entries(schema.shape)
    .filter(([, field]) => !(field as z.ZodType).safeParse(undefined).success)
    .map(([key]) => key);
}

function parameters(operation: Operation, place: string): Parameter[] {
  return (operation.parameters ?? []).filter((parameter) => parameter.in === place);
}

describe('the OpenAPI document, built from the declarations', () => {
  it('holds every declared route at its path and method, and nothing else', () => {
    const declared = ROUTES.flatMap((route) => openApiPaths(route.path).map((path) => `${route.method} ${path}`)).sort();
    const documented = Object.entries(document.paths)
      .flatMap(([path, item]) => Object.keys(item).map((method) => `${method} ${path}`))
      .sort();
    expect(documented).toEqual(declared);
    expect(documented).toContain('post /api/v1/ai/approvals/{id}/decide');
    expect(documented).toContain('get /api/v1/openapi.json');
    expect(documented).toContain('get /admin/queues');
    expect(new Set(declared).size).toBe(declared.length);
  });

  it.each(ROUTES.map((route) => [`${route.method} ${route.path}`, route] as const))(
    '%s: the same parameters, body, access and success status',
    (_name, route: RouteDeclaration) => {
      for (const path of openApiPaths(route.path)) {
        const operation = document.paths[path]?.[route.method] as Operation;
        expect(operation.security).toEqual(route.auth === 'public' ? [] : [{ bearerAuth: [] }, { cookieAuth: [] }]);
        expect(operation.responses).toHaveProperty(String(route.success.status));

        const pathNames = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
        expect(parameters(operation, 'path').map((parameter) => parameter.name)).toEqual(pathNames);
        const query = parameters(operation, 'query');
        expect(query.map((parameter) => parameter.name).sort()).toEqual(Object.keys(route.query?.shape ?? {}).sort());
        if (route.query) {
          const required = requiredKeys(route.query);
          for (const parameter of query) expect(parameter.required === true, parameter.name).toBe(required.includes(parameter.name));
        }
        const siteHeader = parameters(operation, 'header').find((parameter) => parameter.name === 'x-site-id');
        if (route.site) expect(siteHeader?.required).toBe(true);
        else if (route.access?.superadmin === 'or-capabilities') expect(siteHeader?.required).toBeFalsy();
        else expect(siteHeader).toBeUndefined();

        if (!route.body) expect(operation.requestBody).toBeUndefined();
        else {
          expect(operation.requestBody?.required).toBe(!route.bodyOptional);
          const schema = resolved(operation.requestBody!.content['application/json'].schema);
          expect(schema.type).toBe('object');
          if ('shape' in route.body) {
            const body = route.body as z.ZodObject;
            expect(Object.keys(schema.properties ?? {}).sort()).toEqual(Object.keys(body.shape).sort());
            expect([...(schema.required ?? [])].sort()).toEqual(requiredKeys(body).sort());
          }
        }

        const { capabilities = [], superadmin, checks = [] } = route.access ?? {};
        expect(operation['x-access']).toEqual({
          capabilities: [...capabilities],
          ...(superadmin ? { superadmin } : {}),
          checks: [...checks],
        });
        const words = describeAccess(route.access);
        if (words) expect(operation.description).toContain(`Access: ${words}.`);
        if (capabilities.length > 0 || superadmin) expect(operation.responses).toHaveProperty('403');
      }
    },
  );
});

/** A concrete path for `route`: collection names that could exist, any other id. */
function concretePath(route: RouteDeclaration): string {
  return route.path.replace(/:(\w+)/g, (_match, name: string) => (name === 'collection' || name === 'name' ? 'posts' : 'x'));
}

describe('the server enforces the declarations', () => {
  let server: TestServer;
  let siteId: string;
  /** A member of the site holding every capability but one (beyond what every role holds). */
  const lacking = new Map<Capability, string>();
  let siteAdmin: string;

  beforeAll(async () => {
    server = await startTestServer('route-declarations');
    siteId = await server.createSite('Declared');
    siteAdmin = (await server.createMember({ siteId, role: 'admin' })).token;
    for (const missing of CAPABILITIES) {
      if (ROLE_PRESETS.viewer.includes(missing)) continue;
      const capabilities = CAPABILITIES.filter((capability) => capability !== missing && !ROLE_PRESETS.viewer.includes(capability));
      lacking.set(missing, (await server.createMember({ siteId, role: 'viewer', capabilities })).token);
    }
  }, 60_000);
  afterAll(async () => server?.close());

  function call(route: RouteDeclaration, token: string, body?: unknown) {
    const url = `${server.baseUrl}${concretePath(route)}`;
    const headers: Record<string, string> = { authorization: `Bearer ${token}`, 'x-site-id': siteId };
    if (body !== undefined) headers['content-type'] = 'application/json';
    return fetch(url, { method: route.method.toUpperCase(), headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  }

  it('answers 403 to a member lacking a declared capability, and to anyone but a superadmin on a superadmin route', async () => {
    const refused: string[] = [];
    for (const route of ROUTES) {
      const { capabilities = [], superadmin } = route.access ?? {};
      const tokens = superadmin === 'only' ? [siteAdmin] : capabilities.flatMap((capability) => lacking.get(capability) ?? []);
      for (const token of tokens) {
        const response = await call(route, token, route.body ? {} : undefined);
        const text = await response.text();
        expect(response.status, `${route.method} ${route.path}: ${text}`).toBe(403);
        if (route.path.startsWith('/api/v1/')) expect(JSON.parse(text).error.code).toBe('FORBIDDEN');
        refused.push(`${route.method} ${route.path}`);
      }
    }
    // Every write route that names a capability no role holds by default, and every superadmin route, was refused (the
    // trash routes check by entry kind instead: item-trash.router.test.ts).
    expect(new Set(refused).size).toBeGreaterThanOrEqual(29);
  }, 60_000);

  it('answers 400 with details to a body its declared schema refuses, before doing anything', async () => {
    let checked = 0;
    for (const route of ROUTES.filter((candidate) => candidate.body)) {
      const response = await call(route, server.adminToken, [42]);
      const body = (await response.json()) as {
        error: { code: string; message: string; details: Array<{ path: string; message: string }> };
      };
      expect(response.status, `${route.method} ${route.path}: ${JSON.stringify(body)}`).toBe(400);
      expect(body.error).toMatchObject({ code: 'VALIDATION_FAILED', message: 'Invalid request body' });
      expect(body.error.details.length).toBeGreaterThan(0);
      for (const detail of body.error.details) expect(detail).toEqual({ path: expect.any(String), message: expect.any(String) });
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(15);
  }, 60_000);
});
