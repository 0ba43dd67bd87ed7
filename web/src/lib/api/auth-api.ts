// Sign-in, sign-out and the current session: /auth/login, /auth/logout, /auth/me.
import { LoginResponse, MeResponse, type SiteAccess, type UserView } from '@lumibase/shared';
import type { HttpClient } from './http-client.js';

export interface SessionInfo {
  user: UserView;
  sites: SiteAccess[];
  /** Only /auth/me says it: the Copilot planner's provider. */
  copilot?: { provider: string } | undefined;
}

export function createAuthApi(http: HttpClient) {
  return {
    /** 401 here means wrong credentials, so it is not reported as an ended session. */
    async login({ email, password }: { email: string; password: string }): Promise<SessionInfo> {
      const { data } = await http.request('/auth/login', {
        method: 'POST',
        body: { email, password },
        schema: LoginResponse,
        reportUnauthenticated: false,
      });
      return { user: data.user, sites: data.sites };
    },
    async logout(): Promise<void> {
      await http.request('/auth/logout', { method: 'POST', reportUnauthenticated: false });
    },
    async me(): Promise<SessionInfo> {
      const { data } = await http.request('/auth/me', { schema: MeResponse, reportUnauthenticated: false });
      return data;
    },
  };
}
