// Site contracts: POST /sites, PATCH/DELETE /sites/:id, GET /sites.
import { z } from 'zod';
import { ListMeta } from './envelope.js';

export const SiteName = z.string().trim().min(1).max(200);

export const CreateSiteRequest = z.strictObject({ name: SiteName });
export type CreateSiteRequest = z.infer<typeof CreateSiteRequest>;

export const UpdateSiteRequest = z.strictObject({ name: SiteName });
export type UpdateSiteRequest = z.infer<typeof UpdateSiteRequest>;

/** DELETE /sites/:id?confirm=<the site's exact name>. */
export const DeleteSiteQuery = z.object({ confirm: z.string().min(1).max(200) });
export type DeleteSiteQuery = z.infer<typeof DeleteSiteQuery>;

export const SiteView = z.object({ id: z.string(), name: z.string() });
export type SiteView = z.infer<typeof SiteView>;

export const SiteResponse = z.object({ data: SiteView });
export const SiteListResponse = z.object({ data: z.array(SiteView), meta: ListMeta });
export type SiteListResponse = z.infer<typeof SiteListResponse>;
