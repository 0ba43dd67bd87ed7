// The version of each site's Copilot policy, kept in Redis so that every server and worker reads the same one: a
// policy change sets a new version after its write and before it answers, and a gate call that reads the version
// after that answer finds what its process cached under the old one stale (docs/API.md, "The gate's tiers and limits").
import { randomBytes } from 'node:crypto';
import type { RedisClientType } from 'redis';

export interface PolicyVersions {
  /** The site's version now (one Redis GET; the first read of a site sets one). */
  current(siteId: string): Promise<string>;
  /** A new version: called after the policy's write and before the change answers. */
  advance(siteId: string): Promise<void>;
}

/** A value never used before: a key lost (a flushed or restarted Redis) can never bring an old version back (no ABA). */
const freshVersion = () => randomBytes(9).toString('hex');

export class RedisPolicyVersions implements PolicyVersions {
  constructor(
    private readonly redis: RedisClientType,
    /** Key prefix (`<QUEUE_PREFIX>:`); tests use a unique one. */
    private readonly prefix: string,
  ) {}

  async current(siteId: string): Promise<string> {
    const key = this.key(siteId);
    const version = await this.redis.get(key);
    if (version !== null) return version;
    // None yet (or lost): start one. Two readers at once both try; NX keeps the first, and both read it back.
    await this.redis.set(key, freshVersion(), { NX: true });
    return (await this.redis.get(key)) ?? freshVersion();
  }

  async advance(siteId: string): Promise<void> {
    await this.redis.set(this.key(siteId), freshVersion());
  }

  /** One key per site: each command touches one slot (Redis Cluster). */
  private key(siteId: string): string {
    return `${this.prefix}policy-version:${siteId}`;
  }
}
