// Superadmin routes: create, list, rename and remove sites and users.
import {
  type ListMeta,
  SiteListResponse,
  SiteResponse,
  type SiteView,
  UserListResponse,
  UserResponse,
  type UserView,
} from '@lumibase/shared';
import { type HttpClient, segment } from './http-client.js';

export interface Page<T> {
  data: T[];
  meta: ListMeta;
}

export function createAdminApi(http: HttpClient) {
  return {
    async listSites({ limit = 100, offset = 0 }: { limit?: number; offset?: number } = {}): Promise<Page<SiteView>> {
      return http.request('/sites', { query: { limit, offset }, schema: SiteListResponse });
    },
    async createSite({ name }: { name: string }): Promise<SiteView> {
      const { data } = await http.request('/sites', { method: 'POST', body: { name }, schema: SiteResponse });
      return data;
    },
    async renameSite(id: string, name: string): Promise<SiteView> {
      const { data } = await http.request(`/sites/${segment(id)}`, { method: 'PATCH', body: { name }, schema: SiteResponse });
      return data;
    },
    /** `confirm` is the site's exact name: the server refuses anything else. */
    async removeSite(id: string, confirm: string): Promise<void> {
      await http.request(`/sites/${segment(id)}`, { method: 'DELETE', query: { confirm } });
    },
    async renameUser(id: string, name: string): Promise<UserView> {
      const { data } = await http.request(`/users/${segment(id)}`, { method: 'PATCH', body: { name }, schema: UserResponse });
      return data;
    },
    async removeUser(id: string): Promise<void> {
      await http.request(`/users/${segment(id)}`, { method: 'DELETE' });
    },
    async listUsers({ limit = 25, offset = 0 }: { limit?: number; offset?: number } = {}): Promise<Page<UserView>> {
      return http.request('/users', { query: { limit, offset }, schema: UserListResponse });
    },
    async createUser(user: { email: string; name: string; password: string }): Promise<UserView> {
      const { data } = await http.request('/users', { method: 'POST', body: user, schema: UserResponse });
      return data;
    },
  };
}
