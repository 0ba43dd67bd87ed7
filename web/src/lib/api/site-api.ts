// Site-scoped routes (X-Site-Id fixed at creation, so a reply can never land in another site's view).
import {
  CollectionResponse,
  CollectionView,
  type Field,
  FieldResponse,
  type FieldChanges,
  type GrantedCapability,
  ItemListResponse,
  ItemResponse,
  type ItemView,
  MemberListResponse,
  MemberResponse,
  type MemberView,
  type Role,
  UserListResponse,
  type UserView,
} from '@lumibase/shared';
import { z } from 'zod';
import type { Page } from './admin-api.js';
import { type HttpClient, segment } from './http-client.js';

// API.md: GET /collections answers `{ data }`, with no list meta.
const CollectionsResponse = z.object({ data: z.array(CollectionView) });
// Only the site's event seq of GET /ai/approvals (the approvals themselves are the Copilot dashboard's).
const ApprovalsSeq = z.object({ meta: z.object({ seq: z.number().int().min(0) }) });

export type ItemData = Record<string, unknown>;

export function createSiteApi(http: HttpClient, siteId: string) {
  const site = { siteId };
  return {
    siteId,
    collections: {
      async list(): Promise<CollectionView[]> {
        return (await http.request('/collections', { ...site, schema: CollectionsResponse })).data;
      },
      async get(name: string): Promise<CollectionView> {
        return (await http.request(`/collections/${segment(name)}`, { ...site, schema: CollectionResponse })).data;
      },
      async create(collection: { name: string; label?: string }): Promise<CollectionView> {
        return (await http.request('/collections', { ...site, method: 'POST', body: collection, schema: CollectionResponse })).data;
      },
      async remove(name: string): Promise<void> {
        await http.request(`/collections/${segment(name)}`, { ...site, method: 'DELETE' });
      },
      async addField(collection: string, field: Field): Promise<Field> {
        const path = `/collections/${segment(collection)}/fields`;
        return (await http.request(path, { ...site, method: 'POST', body: field, schema: FieldResponse })).data;
      },
      async updateField(collection: string, field: string, changes: FieldChanges): Promise<Field> {
        const path = `/collections/${segment(collection)}/fields/${segment(field)}`;
        return (await http.request(path, { ...site, method: 'PATCH', body: changes, schema: FieldResponse })).data;
      },
      async removeField(collection: string, field: string): Promise<void> {
        await http.request(`/collections/${segment(collection)}/fields/${segment(field)}`, { ...site, method: 'DELETE' });
      },
    },
    items: {
      async list(collection: string, { limit, offset }: { limit: number; offset: number }): Promise<Page<ItemView>> {
        return http.request(`/items/${segment(collection)}`, { ...site, query: { limit, offset }, schema: ItemListResponse });
      },
      async create(collection: string, data: ItemData): Promise<ItemView> {
        const path = `/items/${segment(collection)}`;
        return (await http.request(path, { ...site, method: 'POST', body: { data }, schema: ItemResponse })).data;
      },
      async update(collection: string, id: string, data: ItemData): Promise<ItemView> {
        const path = `/items/${segment(collection)}/${segment(id)}`;
        return (await http.request(path, { ...site, method: 'PATCH', body: { data }, schema: ItemResponse })).data;
      },
      async remove(collection: string, id: string): Promise<void> {
        await http.request(`/items/${segment(collection)}/${segment(id)}`, { ...site, method: 'DELETE' });
      },
    },
    members: {
      async list(): Promise<MemberView[]> {
        return (await http.request('/members', { ...site, query: { limit: 100 }, schema: MemberListResponse })).data;
      },
      async put(userId: string, membership: { role: Role; capabilities: GrantedCapability[] }): Promise<MemberView> {
        return (await http.request(`/members/${segment(userId)}`, { ...site, method: 'PUT', body: membership, schema: MemberResponse }))
          .data;
      },
      async remove(userId: string): Promise<void> {
        await http.request(`/members/${segment(userId)}`, { ...site, method: 'DELETE' });
      },
    },
    events: {
      /** The site's current event seq, where a socket starts gap-free (API.md: `meta.seq` of GET /ai/approvals). */
      async currentSeq(): Promise<number> {
        return (await http.request('/ai/approvals', { ...site, schema: ApprovalsSeq })).meta.seq;
      },
    },
    users: {
      /** Exact, case-insensitive email lookup; allowed with `users:write` in this site. */
      async findByEmail(email: string): Promise<UserView | undefined> {
        const { data } = await http.request('/users', { ...site, query: { email }, schema: UserListResponse });
        return data[0];
      },
    },
  };
}

export type SiteApi = ReturnType<typeof createSiteApi>;
