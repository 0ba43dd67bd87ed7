// Collections and their fields in the X-Site-Id site: reads need schema:read, changes schema:write.
import { CreateCollectionRequest, CreateFieldRequest, ListQuery, PatchFieldRequest } from '@lumibase/shared';
import { type Request, Router } from 'express';
import type { CollectionsService } from '../services/collections.service.js';
import type { FieldsService } from '../services/fields.service.js';
import { requireCollectionName } from './collection-name-param.js';
import { resumedContextOf, writeContextOf } from './idempotency.js';
import { parseInput, routeParam, sendData, sendNoContent } from './parse-input.js';
import { currentSiteId, currentUser, requireCapabilities } from './require-capabilities.js';

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
  const router = Router();
  const checkCollectionName = requireCollectionName('name');
  const read = requireCapabilities('schema:read');
  const write = requireCapabilities('schema:write');

  router.get('/collections', read, async (request, response) => {
    const page = parseInput(ListQuery, request.query, 'query');
    const { records, total } = await collections.list(currentSiteId(request), page);
    sendData(response, 200, records, { total, ...page });
  });

  router.get('/collections/:name', read, checkCollectionName, async (request, response) => {
    sendData(response, 200, await collections.get(currentSiteId(request), routeParam(request, 'name')));
  });

  router.post('/collections', write, async (request, response) => {
    const input = parseInput(CreateCollectionRequest, request.body, 'body');
    sendData(response, 201, await collections.create(currentSiteId(request), input, writeContextOf(request)));
  });

  router.delete('/collections/:name', write, checkCollectionName, async (request, response) => {
    await collections.remove(currentSiteId(request), routeParam(request, 'name'), deleter(request));
    sendNoContent(response);
  });

  router.post('/collections/:name/fields', write, checkCollectionName, async (request, response) => {
    const field = parseInput(CreateFieldRequest, request.body, 'body');
    sendData(response, 201, await fields.add(currentSiteId(request), routeParam(request, 'name'), field, resumedContextOf(request)));
  });

  router.patch('/collections/:name/fields/:field', write, checkCollectionName, async (request, response) => {
    const changes = parseInput(PatchFieldRequest, request.body, 'body');
    sendData(
      response,
      200,
      await fields.update(currentSiteId(request), routeParam(request, 'name'), routeParam(request, 'field'), changes),
    );
  });

  router.delete('/collections/:name/fields/:field', write, checkCollectionName, async (request, response) => {
    await fields.remove(currentSiteId(request), routeParam(request, 'name'), routeParam(request, 'field'), deleter(request));
    sendNoContent(response);
  });
  return router;
}
