// Items of a collection in the X-Site-Id site: reads need content:read, changes content:write.
import { ItemListQuery, ItemWriteRequest } from '@lumibase/shared';
import { type Request, Router } from 'express';
import type { ItemsService } from '../services/items.service.js';
import { requireCollectionName } from './collection-name-param.js';
import { writeContextOf } from './idempotency.js';
import { parseInput, routeParam, sendData, sendNoContent } from './parse-input.js';
import { currentSiteId, currentUser, requireCapabilities } from './require-capabilities.js';

/** A REST write is on the signed-in user's authority; their revision says so. */
function restWrite(request: Request) {
  const { id, name } = currentUser(request);
  return { actor: { id, name }, via: 'rest' as const };
}

/**
 * The body's `data` with the keys the client sent. zod's record copies it without an own
 * `__proto__` key (JSON.parse makes one), which would make `{"__proto__": …}` vanish without a
 * word; validateItemData must see it to refuse it as an unknown field.
 */
function itemData(request: Request): Record<string, unknown> {
  parseInput(ItemWriteRequest, request.body, 'body');
  return (request.body as ItemWriteRequest).data;
}

/** Mounted after tenancy. */
export function createItemsRouter({ items }: { items: ItemsService }): Router {
  const router = Router();
  const checkCollectionName = requireCollectionName('collection');
  const read = requireCapabilities('content:read');
  const write = requireCapabilities('content:write');

  router.get('/items/:collection', read, checkCollectionName, async (request, response) => {
    const page = parseInput(ItemListQuery, request.query, 'query');
    const { records, total } = await items.list(currentSiteId(request), routeParam(request, 'collection'), page);
    sendData(response, 200, records, { total, ...page });
  });

  router.get('/items/:collection/:id', read, checkCollectionName, async (request, response) => {
    sendData(response, 200, await items.get(currentSiteId(request), routeParam(request, 'collection'), routeParam(request, 'id')));
  });

  router.post('/items/:collection', write, checkCollectionName, async (request, response) => {
    sendData(
      response,
      201,
      await items.create(currentSiteId(request), routeParam(request, 'collection'), itemData(request), {
        ...restWrite(request),
        ...writeContextOf(request),
      }),
    );
  });

  router.patch('/items/:collection/:id', write, checkCollectionName, async (request, response) => {
    const data = itemData(request);
    sendData(
      response,
      200,
      await items.update(currentSiteId(request), routeParam(request, 'collection'), routeParam(request, 'id'), data, restWrite(request)),
    );
  });

  router.delete('/items/:collection/:id', write, checkCollectionName, async (request, response) => {
    await items.remove(currentSiteId(request), routeParam(request, 'collection'), routeParam(request, 'id'), restWrite(request));
    sendNoContent(response);
  });
  return router;
}
