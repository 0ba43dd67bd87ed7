// The site the Studio works in: chosen by the user, remembered per user in localStorage, checked against their sites.
import {
  type Capability,
  type CapabilityHolder,
  canDecideApproval,
  deciderCapabilities,
  hasCapabilities,
  missingCapabilities,
  type SiteAccess,
} from '@lumibase/shared';
import type { SessionState } from './session.svelte.js';

export const SITE_STORAGE_PREFIX = 'lumibase.site.';

export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export class SiteState {
  #chosen = $state<{ userId: string; siteId: string } | undefined>(undefined);
  readonly #session: SessionState;
  readonly #storage: KeyValueStorage | undefined;

  constructor(session: SessionState, storage: KeyValueStorage | undefined) {
    this.#session = session;
    this.#storage = storage;
  }

  /** The chosen site if the user still has it, else their only site; undefined means "pick one". */
  current: SiteAccess | undefined = $derived.by(() => {
    const sites = this.#session.sites;
    const userId = this.#session.user?.id;
    const chosenId = this.#chosen && this.#chosen.userId === userId ? this.#chosen.siteId : this.#stored();
    return sites.find((site) => site.id === chosenId) ?? (sites.length === 1 ? sites[0] : undefined);
  });

  choose(siteId: string): void {
    const userId = this.#session.user?.id;
    if (!userId) return;
    this.#chosen = { userId, siteId };
    const key = this.#key();
    if (key) this.#storage?.setItem(key, siteId);
  }

  /** True when the signed-in user holds every capability in the current site (`*` counts for superadmins only). */
  can(...required: Capability[]): boolean {
    const holder = this.#holder();
    return holder ? hasCapabilities(holder, required) : false;
  }

  /** The decider rule (shared with the server): approvals:decide plus every capability the skill requires. */
  canDecide(skillName: string): boolean {
    const holder = this.#holder();
    return holder ? canDecideApproval(holder, skillName) : false;
  }

  /** What the signed-in user lacks to decide on `skillName` here (all of it when no site is chosen). */
  missingToDecide(skillName: string): string[] {
    const holder = this.#holder();
    return holder ? missingCapabilities(holder, deciderCapabilities(skillName)) : deciderCapabilities(skillName);
  }

  #holder(): CapabilityHolder | undefined {
    const site = this.current;
    return site ? { capabilities: site.capabilities, isSuperadmin: this.#session.isSuperadmin } : undefined;
  }

  #stored(): string | undefined {
    const key = this.#key();
    return (key && this.#storage?.getItem(key)) || undefined;
  }

  #key(): string | undefined {
    const userId = this.#session.user?.id;
    return userId ? `${SITE_STORAGE_PREFIX}${userId}` : undefined;
  }
}
