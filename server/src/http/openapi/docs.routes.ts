// The API's description of itself: the OpenAPI document and its interactive reference (both public).
import { declareRoute } from '../route.js';

export const OPENAPI_PATH = '/api/v1/openapi.json';
export const DOCS_PATH = '/api/docs';

export const DOCS_ROUTES = {
  document: declareRoute({
    method: 'get',
    path: OPENAPI_PATH,
    summary: 'This OpenAPI 3.1 document',
    tag: 'Operations',
    auth: 'public',
    success: { status: 200, description: 'The document', contentType: 'application/json' },
  }),
  reference: declareRoute({
    method: 'get',
    path: DOCS_PATH,
    summary: 'Interactive API reference (Swagger UI, served locally)',
    tag: 'Operations',
    auth: 'public',
    success: { status: 200, description: 'An HTML page', contentType: 'text/html' },
  }),
};
