// The OpenAPI document: it is valid OpenAPI 3.1, describes what clients need, and is served publicly. That it lists
// every declared route as declared is route.test.ts.
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test-support/test-server.js';
import { ROUTES } from '../routes.js';
import { buildOpenApiDocument } from './openapi-document.js';
import { errorStatuses, openApiPaths } from './operation-object.js';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

let server: TestServer;
const document = buildOpenApiDocument();

beforeAll(async () => {
  server = await startTestServer('openapi');
});
afterAll(async () => {
  await server.close();
});

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document) as unknown as Parameters<Validator['validate']>[0]);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('describes bodies, parameters, the X-Site-Id header, auth schemes and the error envelope per status', () => {
    expect(document.components?.securitySchemes).toMatchObject({
      bearerAuth: { type: 'http', scheme: 'bearer' },
      cookieAuth: { type: 'apiKey', in: 'cookie', name: 'lumibase_session' },
    });
    const createItem = document.paths?.['/api/v1/items/{collection}']?.post;
    expect(createItem?.security).toEqual([{ bearerAuth: [] }, { cookieAuth: [] }]);
    expect(createItem?.parameters).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ in: 'path', name: 'collection', required: true }),
        expect.objectContaining({ in: 'header', name: 'x-site-id', required: true }),
      ]),
    );
    expect(createItem?.requestBody).toMatchObject({ content: { 'application/json': { schema: { type: 'object', required: ['data'] } } } });
    for (const status of ['201', '400', '401', '403', '404', '413', '500', '503'])
      expect(Object.keys(createItem?.responses ?? {})).toContain(status);
    expect(createItem?.responses?.['403']).toMatchObject({
      content: {
        'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' }, example: { error: { code: 'FORBIDDEN' } } },
      },
    });

    const login = document.paths?.['/api/v1/auth/login']?.post;
    expect(login?.security).toEqual([]);
    expect(Object.keys(login?.responses ?? {})).toEqual(expect.arrayContaining(['200', '400', '401', '429']));
    const listItems = document.paths?.['/api/v1/items/{collection}']?.get;
    expect(listItems?.parameters?.map((parameter) => ('name' in parameter ? parameter.name : ''))).toEqual(
      expect.arrayContaining(['limit', 'offset']),
    );
  });

  it('wraps every JSON success body in the { data } envelope', () => {
    for (const [path, item] of Object.entries(document.paths ?? {})) {
      if (!path.startsWith('/api/v1/') || path === '/api/v1/openapi.json') continue;
      for (const method of METHODS) {
        const operation = (item as Record<string, { responses?: Record<string, { content?: Record<string, { schema?: unknown }> }> }>)[
          method
        ];
        const success = Object.entries(operation?.responses ?? {}).find(([status]) => status.startsWith('2'))?.[1];
        const schema = success?.content?.['application/json']?.schema as { properties?: object } | undefined;
        if (schema) expect(Object.keys(schema.properties ?? {}), `${method} ${path}`).toContain('data');
      }
    }
  });

  it('describes the socket events in its components', () => {
    const schemas = document.components?.schemas ?? {};
    for (const name of [
      'ApprovalCreatedEvent',
      'ApprovalDecidedEvent',
      'ContentChangedEvent',
      'ResyncRequiredEvent',
      'SocketHandshakeAuth',
    ]) {
      expect(schemas).toHaveProperty(name);
    }
    expect((document as unknown as Record<string, unknown>)['x-socket-io']).toMatchObject({
      path: '/socket.io',
      serverToClient: { 'approval-created': { $ref: '#/components/schemas/ApprovalCreatedEvent' } },
    });
  });

  it('gives every operation a unique operationId', () => {
    const ids = Object.values(document.paths ?? {}).flatMap((item) =>
      METHODS.flatMap((method) => ((item as Record<string, { operationId?: string }>)[method]?.operationId ?? []) as string[]),
    );
    expect(new Set(ids).size).toBe(ROUTES.flatMap((route) => openApiPaths(route.path)).length);
  });

  it('lists 401 for every authenticated operation, and for no public read', () => {
    for (const route of ROUTES) {
      if (route.auth !== 'public') expect(errorStatuses(route)).toContain(401);
      else if (route.method === 'get') expect(errorStatuses(route)).not.toContain(401);
    }
  });
});

describe('GET /api/v1/openapi.json and /api/docs', () => {
  it('serves the document without credentials', async () => {
    const response = await server.request('GET', '/api/v1/openapi.json');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(response.body).toEqual(JSON.parse(JSON.stringify(document)));
  });

  it('serves the reference page and its Swagger UI assets from the server itself', async () => {
    const page = await fetch(`${server.baseUrl}/api/docs`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('/api/docs/assets/swagger-ui-bundle.js');
    expect(html).toContain('validatorUrl: null');
    expect(html).not.toMatch(/https?:\/\//);
    const bundle = await fetch(`${server.baseUrl}/api/docs/assets/swagger-ui-bundle.js`);
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toContain('javascript');
    const missing = await fetch(`${server.baseUrl}/api/docs/assets/nope.js`);
    expect(missing.status).toBe(404);
  });
});
