// /webhooks in the X-Site-Id site (users:write): subscribe, list, remove, deliveries, send a test event.
import {
  CreatedWebhookResponse,
  CreateWebhookRequest,
  WebhookDeliveryListResponse,
  WebhookDeliveryResponse,
  WebhookListResponse,
} from '@lumibase/shared';
import type { WebhooksService } from '../services/webhooks.service.js';
import { IDEMPOTENT_REPLAY_BODY } from './idempotency.js';
import { declaredRouter, type MountedRouter, mountedRouter, mountPathOf } from './mount-route.js';
import { sendData, sendNoContent } from './parse-input.js';
import { currentSiteId, currentUser } from './require-capabilities.js';
import { declareRoute, NO_CONTENT } from './route.js';

const webhook = { tag: 'Webhooks', auth: 'session', site: true, access: { capabilities: ['users:write'] } } as const;

export const WEBHOOKS_ROUTES = {
  create: declareRoute({
    ...webhook,
    method: 'post',
    path: '/api/v1/webhooks',
    summary: 'Subscribe a URL to site events (the secret is generated when absent and shown only here)',
    body: CreateWebhookRequest,
    success: { status: 201, description: 'The webhook with its secret', schema: CreatedWebhookResponse },
  }),
  list: declareRoute({
    ...webhook,
    method: 'get',
    path: '/api/v1/webhooks',
    summary: "The site's webhooks with their last delivery",
    success: { status: 200, description: 'Webhooks (without secrets)', schema: WebhookListResponse },
  }),
  remove: declareRoute({
    ...webhook,
    method: 'delete',
    path: '/api/v1/webhooks/:id',
    summary: 'Remove a webhook and its deliveries log',
    success: NO_CONTENT,
  }),
  deliveries: declareRoute({
    ...webhook,
    method: 'get',
    path: '/api/v1/webhooks/:id/deliveries',
    summary: 'The last deliveries, newest first',
    success: { status: 200, description: 'Deliveries', schema: WebhookDeliveryListResponse },
  }),
  test: declareRoute({
    ...webhook,
    method: 'post',
    path: '/api/v1/webhooks/:id/test',
    summary: 'Queue a `webhook-test` delivery (seq 0)',
    success: { status: 202, description: 'The queued delivery', schema: WebhookDeliveryResponse },
  }),
};

/** Mounted below /api/v1 at the path its declarations share (mountPathOf), after tenancy. */
export function createWebhooksRouter({ webhooks }: { webhooks: WebhooksService }): MountedRouter {
  const declared = declaredRouter({ base: mountPathOf(WEBHOOKS_ROUTES) })
    .route(WEBHOOKS_ROUTES.create, async ({ body }, request, response) => {
      // The secret is in this answer only; it is never logged (the logger redacts `secret`), nor kept for a replay.
      const created = await webhooks.create(currentSiteId(request), body);
      const { secret: _secret, ...replayable } = created;
      response.locals[IDEMPOTENT_REPLAY_BODY] = JSON.stringify({ data: replayable });
      sendData(response, 201, created);
    })
    .route(WEBHOOKS_ROUTES.list, async (_input, request, response) => {
      sendData(response, 200, await webhooks.list(currentSiteId(request)));
    })
    .route(WEBHOOKS_ROUTES.remove, async ({ params }, request, response) => {
      await webhooks.remove(currentSiteId(request), params.id);
      sendNoContent(response);
    })
    .route(WEBHOOKS_ROUTES.deliveries, async ({ params }, request, response) => {
      sendData(response, 200, await webhooks.deliveries(currentSiteId(request), params.id));
    })
    .route(WEBHOOKS_ROUTES.test, async ({ params }, request, response) => {
      sendData(response, 202, await webhooks.sendTest(currentSiteId(request), params.id, currentUser(request)));
    });
  return mountedRouter(declared);
}
