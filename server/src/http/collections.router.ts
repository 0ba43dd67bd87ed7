// Collections and their fields in the X-Site-Id site: reads need schema:read, changes schema:write.
import {
  CollectionListResponse,
  CollectionResponse,
  CreateCollectionRequest,
  CreateFieldRequest,
  FieldResponse,
  ListQuery,
  PatchFieldRequest,
} from '@lumibase/shared';
import type { Request, Router } from 'express';
import type { CollectionsService } from '../services/collections.service.js';
import type { FieldsService } from '../services/fields.service.js';
import { requireCollectionName } from './collection-name-param.js';
import { resumedContextOf, writeContextOf } from './idempotency.js';
import { declaredRouter } from './mount-route.js';
import { sendData, sendNoContent } from './parse-input.js';
import { currentSiteId, currentUser } from './require-capabilities.js';
import { API_BASE, declareRoute, NO_CONTENT } from './route.js';

const content = { tag: 'Content', auth: 'session', site: true } as const;
const read = { capabilities: ['schema:read'] } as const;
const write = { capabilities: ['schema:write'] } as const;

export const COLLECTIONS_ROUTES = {
  list: declareRoute({
    ...content,
    method: 'get',
    path: '/api/v1/collections',
    summary: "The site's collections with their fields",
    access: read,
    query: ListQuery,
    success: { status: 200, description: 'Collections', schema: CollectionListResponse },
  }),
  get: declareRoute({
    ...content,
    method: 'get',
    path: '/api/v1/collections/:name',
    summary: 'One collection',
    access: read,
    success: { status: 200, description: 'The collection', schema: CollectionResponse },
    errors: [404],
  }),
  create: declareRoute({
    ...content,
    method: 'post',
    path: '/api/v1/collections',
    resumable: true,
    summary: 'Create a collection',
    access: write,
    body: CreateCollectionRequest,
    success: { status: 201, description: 'Created', schema: CollectionResponse },
    errors: [409],
  }),
  remove: declareRoute({
    ...content,
    method: 'delete',
    path: '/api/v1/collections/:name',
    summary: 'Delete a collection: it goes to the trash with its items',
    access: write,
    success: NO_CONTENT,
    errors: [404],
  }),
  addField: declareRoute({
    ...content,
    method: 'post',
    path: '/api/v1/collections/:name/fields',
    resumable: true,
    summary: 'Add a field',
    access: write,
    body: CreateFieldRequest,
    success: { status: 201, description: 'Created', schema: FieldResponse },
    errors: [404, 409],
  }),
  updateField: declareRoute({
    ...content,
    method: 'patch',
    path: '/api/v1/collections/:name/fields/:field',
    summary: 'Change a field',
    access: write,
    body: PatchFieldRequest,
    success: { status: 200, description: 'The field', schema: FieldResponse },
    errors: [404, 409],
  }),
  removeField: declareRoute({
    ...content,
    method: 'delete',
    path: '/api/v1/collections/:name/fields/:field',
    summary: "Delete a field: it goes to the trash with its items' values",
    access: write,
    success: NO_CONTENT,
    errors: [404],
  }),
};

export interface CollectionsRouterOptions {
  collections: CollectionsService;
  fields: FieldsService;
}

/** A REST deletion is on the signed-in user's authority: the trash entry names them. */
function deleter(request: Request) {
  const { id, name } = currentUser(request);
  return { actor: { id, name } };
}

/** Mounted after tenancy. */
export function createCollectionsRouter({ collections, fields }: CollectionsRouterOptions): Router {
  const named = [requireCollectionName('name')];
  return declaredRouter({ base: API_BASE })
    .route(COLLECTIONS_ROUTES.list, async ({ query: page }, request, response) => {
      const { records, total } = await collections.list(currentSiteId(request), page);
      sendData(response, 200, records, { total, ...page });
    })
    .route(
      COLLECTIONS_ROUTES.get,
      async ({ params }, request, response) => {
        sendData(response, 200, await collections.get(currentSiteId(request), params.name));
      },
      named,
    )
    .route(COLLECTIONS_ROUTES.create, async ({ body }, request, response) => {
      sendData(response, 201, await collections.create(currentSiteId(request), body, writeContextOf(request)));
    })
    .route(
      COLLECTIONS_ROUTES.remove,
      async ({ params }, request, response) => {
        await collections.remove(currentSiteId(request), params.name, deleter(request));
        sendNoContent(response);
      },
      named,
    )
    .route(
      COLLECTIONS_ROUTES.addField,
      async ({ params, body }, request, response) => {
        sendData(response, 201, await fields.add(currentSiteId(request), params.name, body, resumedContextOf(request)));
      },
      named,
    )
    .route(
      COLLECTIONS_ROUTES.updateField,
      async ({ params, body }, request, response) => {
        sendData(response, 200, await fields.update(currentSiteId(request), params.name, params.field, body));
      },
      named,
    )
    .route(
      COLLECTIONS_ROUTES.removeField,
      async ({ params }, request, response) => {
        await fields.remove(currentSiteId(request), params.name, params.field, deleter(request));
        sendNoContent(response);
      },
      named,
    ).router;
}
