// /webhooks in the X-Site-Id site (users:write): subscribe, list, remove, deliveries, send a test event.
import { CreateWebhookRequest } from '@lumibase/shared';
import { Router } from 'express';
import type { WebhooksService } from '../services/webhooks.service.js';
import { IDEMPOTENT_REPLAY_BODY } from './idempotency.js';
import { parseInput, routeParam, sendData, sendNoContent } from './parse-input.js';
import { currentSiteId, currentUser, requireCapabilities } from './require-capabilities.js';

/** Mounted at /webhooks after tenancy. */
export function createWebhooksRouter({ webhooks }: { webhooks: WebhooksService }): Router {
  const router = Router();
  router.use(requireCapabilities('users:write'));

  router.post('/', async (request, response) => {
    const input = parseInput(CreateWebhookRequest, request.body, 'body');
    // The secret is in this answer only; it is never logged (the logger redacts `secret`), nor kept for a replay.
    const created = await webhooks.create(currentSiteId(request), input);
    const { secret: _secret, ...replayable } = created;
    response.locals[IDEMPOTENT_REPLAY_BODY] = JSON.stringify({ data: replayable });
    sendData(response, 201, created);
  });

  router.get('/', async (request, response) => {
    sendData(response, 200, await webhooks.list(currentSiteId(request)));
  });

  router.delete('/:id', async (request, response) => {
    await webhooks.remove(currentSiteId(request), routeParam(request, 'id'));
    sendNoContent(response);
  });

  router.get('/:id/deliveries', async (request, response) => {
    sendData(response, 200, await webhooks.deliveries(currentSiteId(request), routeParam(request, 'id')));
  });

  router.post('/:id/test', async (request, response) => {
    sendData(response, 202, await webhooks.sendTest(currentSiteId(request), routeParam(request, 'id'), currentUser(request)));
  });
  return router;
}
