// Site contracts: POST /sites, GET /sites.
import { z } from 'zod';
import { ListMeta } from './envelope.js';

export const SiteName = z.string().trim().min(1).max(200);

export const CreateSiteRequest = z.strictObject({ name: SiteName });
export type CreateSiteRequest = z.infer<typeof CreateSiteRequest>;

export const SiteView = z.object({ id: z.string(), name: z.string() });
export type SiteView = z.infer<typeof SiteView>;

export const SiteResponse = z.object({ data: SiteView });
export const SiteListResponse = z.object({ data: z.array(SiteView), meta: ListMeta });
export type SiteListResponse = z.infer<typeof SiteListResponse>;
