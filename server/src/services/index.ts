// The use cases, built once per process over the stores. Request-agnostic: callers pass the site id.
import type { RedisClientType } from 'redis';
import { LoginLimiter } from '../security/login-limiter.js';
import { PasswordHasher } from '../security/password-hasher.js';
import type { Stores } from '../store/stores.js';
import { AuthService } from './auth.service.js';
import { CollectionsService } from './collections.service.js';
import { DomainEvents } from './domain-events.js';
import { FieldsService } from './fields.service.js';
import { ItemsService } from './items.service.js';
import { MembersService } from './members.service.js';
import { SiteAccessService } from './site-access.service.js';
import { SitesService } from './sites.service.js';
import type { TrashRetention } from './trash-retention.js';
import { UsersService } from './users.service.js';

export interface Services {
  events: DomainEvents;
  hasher: PasswordHasher;
  access: SiteAccessService;
  auth: AuthService;
  users: UsersService;
  sites: SitesService;
  members: MembersService;
  collections: CollectionsService;
  fields: FieldsService;
  items: ItemsService;
}

export interface ServicesOptions {
  stores: Stores;
  redis: RedisClientType;
  /** Prefix of the Redis keys the services own (failed-login counters). */
  redisPrefix: string;
  sessionTtlHours: number;
  hasher?: PasswordHasher;
  events?: DomainEvents;
  now?: () => Date;
  /** How long deleted collections, fields and items stay restorable (default 30 days). */
  trashRetention?: TrashRetention;
}

export function createServices(options: ServicesOptions): Services {
  const { stores } = options;
  const events = options.events ?? new DomainEvents();
  const hasher = options.hasher ?? new PasswordHasher();
  const access = new SiteAccessService(stores);
  const limiter = new LoginLimiter({ redis: options.redis, prefix: options.redisPrefix });
  return {
    events,
    hasher,
    access,
    auth: new AuthService({
      stores,
      access,
      hasher,
      limiter,
      events,
      sessionTtlHours: options.sessionTtlHours,
      ...(options.now ? { now: options.now } : {}),
    }),
    users: new UsersService(stores, hasher, events),
    sites: new SitesService(stores, events),
    members: new MembersService(stores, events, hasher),
    collections: new CollectionsService(stores, options.trashRetention),
    fields: new FieldsService(stores, options.trashRetention),
    items: new ItemsService(stores, options.trashRetention),
  };
}

export type { DomainEventMap } from './domain-events.js';
export { bootstrapSuperadmin } from './bootstrap-superadmin.js';
export { createDemoSite } from './create-demo-site.js';
export type { WriteContext } from './write-context.js';
