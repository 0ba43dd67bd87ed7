// Items of a collection in the X-Site-Id site: reads need content:read, changes content:write.
import { ItemListQuery, ItemListResponse, ItemResponse, ItemWriteRequest } from '@lumibase/shared';
import type { Request, Router } from 'express';
import type { ItemsService } from '../services/items.service.js';
import { requireCollectionName } from './collection-name-param.js';
import { writeContextOf } from './idempotency.js';
import { declaredRouter } from './mount-route.js';
import { sendData, sendNoContent } from './parse-input.js';
import { currentSiteId, currentUser } from './require-capabilities.js';
import { API_BASE, declareRoute, NO_CONTENT } from './route.js';

const content = { tag: 'Content', auth: 'session', site: true } as const;
const read = { capabilities: ['content:read'] } as const;
const write = { capabilities: ['content:write'] } as const;

export const ITEMS_ROUTES = {
  list: declareRoute({
    ...content,
    method: 'get',
    path: '/api/v1/items/:collection',
    summary: 'Items of a collection',
    access: read,
    query: ItemListQuery,
    success: { status: 200, description: 'Items', schema: ItemListResponse },
    errors: [404],
  }),
  get: declareRoute({
    ...content,
    method: 'get',
    path: '/api/v1/items/:collection/:id',
    summary: 'One item',
    access: read,
    success: { status: 200, description: 'The item', schema: ItemResponse },
    errors: [404],
  }),
  create: declareRoute({
    ...content,
    method: 'post',
    path: '/api/v1/items/:collection',
    resumable: true,
    summary: "Create an item (validated against the collection's fields)",
    access: write,
    body: ItemWriteRequest,
    success: { status: 201, description: 'Created', schema: ItemResponse },
    errors: [404],
  }),
  update: declareRoute({
    ...content,
    method: 'patch',
    path: '/api/v1/items/:collection/:id',
    summary: 'Merge the given fields into an item',
    access: write,
    body: ItemWriteRequest,
    success: { status: 200, description: 'The item', schema: ItemResponse },
    errors: [404],
  }),
  remove: declareRoute({
    ...content,
    method: 'delete',
    path: '/api/v1/items/:collection/:id',
    summary: 'Delete an item',
    access: write,
    success: NO_CONTENT,
    errors: [404],
  }),
};

/** A REST write is on the signed-in user's authority; their revision says so. */
function restWrite(request: Request) {
  const { id, name } = currentUser(request);
  return { actor: { id, name }, via: 'rest' as const };
}

/**
 * The body's `data` with the keys the client sent (the body was parsed by ItemWriteRequest). zod's record copies it
 * without an own `__proto__` key (JSON.parse makes one), which would make `{"__proto__": …}` vanish without a word;
 * validateItemData must see it to refuse it as an unknown field.
 */
function itemData(request: Request): Record<string, unknown> {
  return (request.body as ItemWriteRequest).data;
}

/** Mounted after tenancy. */
export function createItemsRouter({ items }: { items: ItemsService }): Router {
  const named = [requireCollectionName('collection')];
  return declaredRouter({ base: API_BASE })
    .route(
      ITEMS_ROUTES.list,
      async ({ params, query: page }, request, response) => {
        const { records, total } = await items.list(currentSiteId(request), params.collection, page);
        sendData(response, 200, records, { total, ...page });
      },
      named,
    )
    .route(
      ITEMS_ROUTES.get,
      async ({ params }, request, response) => {
        sendData(response, 200, await items.get(currentSiteId(request), params.collection, params.id));
      },
      named,
    )
    .route(
      ITEMS_ROUTES.create,
      async ({ params }, request, response) => {
        const context = { ...restWrite(request), ...writeContextOf(request) };
        sendData(response, 201, await items.create(currentSiteId(request), params.collection, itemData(request), context));
      },
      named,
    )
    .route(
      ITEMS_ROUTES.update,
      async ({ params }, request, response) => {
        const data = itemData(request);
        sendData(response, 200, await items.update(currentSiteId(request), params.collection, params.id, data, restWrite(request)));
      },
      named,
    )
    .route(
      ITEMS_ROUTES.remove,
      async ({ params }, request, response) => {
        await items.remove(currentSiteId(request), params.collection, params.id, restWrite(request));
        sendNoContent(response);
      },
      named,
    ).router;
}
