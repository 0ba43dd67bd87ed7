// GET /api/v1/openapi.json (public) and the interactive reference at /api/docs, served from swagger-ui-dist (no CDN).
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import express, { type Router } from 'express';
import { declaredRouter } from '../mount-route.js';
import { DOCS_PATH, DOCS_ROUTES, OPENAPI_PATH } from './docs.routes.js';
import { buildOpenApiDocument } from './openapi-document.js';

export { DOCS_PATH };

const require = createRequire(import.meta.url);
const SWAGGER_UI_DIR = dirname(require.resolve('swagger-ui-dist/package.json'));

// validatorUrl: null — Swagger UI would otherwise send the document to an online validator.
const INIT = `window.ui = SwaggerUIBundle({
  url: ${JSON.stringify(OPENAPI_PATH)},
  dom_id: '#swagger-ui',
  deepLinking: true,
  validatorUrl: null,
  withCredentials: true,
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
});
`;

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>LumiBase API reference</title>
  <link rel="stylesheet" href="${DOCS_PATH}/assets/swagger-ui.css">
  <link rel="icon" href="${DOCS_PATH}/assets/favicon-32x32.png">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="${DOCS_PATH}/assets/swagger-ui-bundle.js"></script>
  <script>${INIT}</script>
</body>
</html>
`;

export function createDocsRouter(): Router {
  // Built once: the document depends only on the contracts compiled into this process.
  const document = buildOpenApiDocument();
  const { router } = declaredRouter({ base: '' })
    .route(DOCS_ROUTES.document, (_input, _request, response) => {
      response.json(document);
    })
    .route(DOCS_ROUTES.reference, (_input, _request, response) => {
      response.type('html').send(PAGE);
    });
  router.use(`${DOCS_PATH}/assets`, express.static(SWAGGER_UI_DIR, { index: false, maxAge: '1h' }));
  return router;
}
