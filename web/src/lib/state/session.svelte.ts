// Who is signed in and which sites they can open: restored from the session cookie, changed by sign-in and sign-out.
import type { SiteAccess, UserView } from '@lumibase/shared';
import { type Api, type ApiError, type SessionInfo, toApiError } from '../api/index.js';

export type SessionStatus = 'loading' | 'signed-out' | 'signed-in' | 'unreachable';

export class SessionState {
  status = $state<SessionStatus>('loading');
  user = $state.raw<UserView | undefined>(undefined);
  sites = $state.raw<SiteAccess[]>([]);
  /** The Copilot planner's provider, from /auth/me (kept across a sign-in, which does not say it). */
  copilotProvider = $state<string | undefined>(undefined);
  /** Set when the session ended on its own (expiry, logout elsewhere), for the sign-in page to explain. */
  endedReason = $state<string | undefined>(undefined);
  error = $state.raw<ApiError | undefined>(undefined);

  readonly #api: Api;

  constructor(api: Api) {
    this.#api = api;
  }

  get isSuperadmin(): boolean {
    return this.user?.isSuperadmin ?? false;
  }

  async restore(): Promise<void> {
    this.status = 'loading';
    try {
      this.#accept(await this.#api.auth.me());
    } catch (error) {
      const apiError = toApiError(error);
      if (apiError.status === 401) this.#clear();
      else {
        this.error = apiError;
        this.status = 'unreachable';
      }
    }
  }

  /** Throws the ApiError for the form to show; the session is unchanged on failure. */
  async signIn(email: string, password: string): Promise<void> {
    this.#accept(await this.#api.auth.login({ email, password }));
    this.endedReason = undefined;
  }

  async signOut(): Promise<void> {
    try {
      await this.#api.auth.logout();
    } finally {
      this.#clear();
    }
  }

  /** Re-reads the site list (after a superadmin creates a site, or a membership changes). */
  async refresh(): Promise<void> {
    try {
      this.#accept(await this.#api.auth.me());
    } catch (error) {
      if (toApiError(error).status === 401) this.expire();
    }
  }

  /** Any request answered 401: the cookie no longer works. */
  expire(): void {
    if (this.status !== 'signed-in') return;
    this.#clear();
    this.endedReason = 'Your session has ended. Sign in again to continue.';
  }

  #accept({ user, sites, copilot }: SessionInfo): void {
    if (copilot) this.copilotProvider = copilot.provider;
    this.user = user;
    this.sites = sites;
    this.error = undefined;
    this.status = 'signed-in';
  }

  #clear(): void {
    this.user = undefined;
    this.sites = [];
    this.status = 'signed-out';
  }
}
