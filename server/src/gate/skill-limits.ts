// The policy's hourly `limits` per skill per site (docs/API.md, "The gate's tiers and limits"): executions and approvals
// requested through the Copilot and the MCP server, counted atomically in Redis (rate-limiter-flexible, as the login
// limit is) so that every server process shares one count.
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible';
import type { RedisClientType } from 'redis';

export const HOUR_SECONDS = 60 * 60;

export interface SkillLimits {
  /** Counts one run of `skillName` in `siteId`; false (nothing counted) when `limit` runs this hour are used up. */
  take(siteId: string, skillName: string, limit: number): Promise<boolean>;
}

/**
 * A fixed hour per site and skill that starts with its first run. The counter is one key whatever the limit (a limit
 * changed within the hour keeps the hour's count); `consume` increments it atomically, so of any number of concurrent
 * callers in any process exactly those whose increment stayed within the limit pass, and a refusal is given back.
 */
export class CountedSkillLimits implements SkillLimits {
  constructor(private readonly counter: RateLimiterAbstract) {}

  static redis(redis: RedisClientType, prefix: string): CountedSkillLimits {
    return new CountedSkillLimits(
      new RateLimiterRedis({
        storeClient: redis,
        useRedisPackage: true,
        keyPrefix: `${prefix}skill-limits`,
        points: Number.MAX_SAFE_INTEGER,
        duration: HOUR_SECONDS,
      }),
    );
  }

  /** One process's count (the gate tested alone); the servers use `redis`. */
  static memory(): CountedSkillLimits {
    return new CountedSkillLimits(new RateLimiterMemory({ points: Number.MAX_SAFE_INTEGER, duration: HOUR_SECONDS }));
  }

  async take(siteId: string, skillName: string, limit: number): Promise<boolean> {
    const key = `${siteId}:${skillName}`;
    const counted = await this.counter.consume(key);
    if (counted.consumedPoints <= limit) return true;
    await this.counter.reward(key);
    return false;
  }
}
