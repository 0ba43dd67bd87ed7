// The Studio's typed API client: one HttpClient, global routes, and a site-scoped client per site.
import { createAdminApi } from './admin-api.js';
import { createAuthApi } from './auth-api.js';
import { HttpClient, type HttpClientOptions } from './http-client.js';
import { createSiteApi, type SiteApi } from './site-api.js';

export { ApiError, describeError, describeRetry, toApiError } from './api-error.js';
export type { Page } from './admin-api.js';
export type { RetryNotice } from './http-client.js';
export type { SessionInfo } from './auth-api.js';
export type { ApprovalEdit, ItemData, SiteApi, StepEdit } from './site-api.js';
export { describeAiError } from './ai-skills-api.js';

export function createApi(options: HttpClientOptions = {}) {
  const http = new HttpClient(options);
  return {
    auth: createAuthApi(http),
    admin: createAdminApi(http),
    site: (siteId: string): SiteApi => createSiteApi(http, siteId),
  };
}

export type Api = ReturnType<typeof createApi>;
