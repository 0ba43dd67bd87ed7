// Which MCP client a session token's requests come from. Stateless Streamable HTTP sends clientInfo only in the
// initialize request, so it is remembered per authenticated session (in Redis, so every API process knows it) and
// read back on the calls that follow; a client never seen initializing is named by its User-Agent.
import type { RedisClientType } from 'redis';

const MAX_NAME = 100;
const REMEMBER_SECONDS = 7 * 24 * 3600;

export interface ClientNames {
  remember(sessionId: string, name: string): Promise<void>;
  recall(sessionId: string): Promise<string | undefined>;
}

/** Printable, one line, bounded: the Studio shows it to an approver. */
export function cleanClientName(name: unknown): string | undefined {
  if (typeof name !== 'string') return undefined;
  const cleaned = name
    .replace(/[\p{Cc}\p{Cf}]+/gu, ' ')
    .trim()
    .slice(0, MAX_NAME);
  return cleaned === '' ? undefined : cleaned;
}

export function redisClientNames(redis: RedisClientType, prefix: string): ClientNames {
  const key = (sessionId: string) => `${prefix}:mcp-client:${sessionId}`;
  return {
    async remember(sessionId, name) {
      await redis.set(key(sessionId), name, { EX: REMEMBER_SECONDS });
    },
    async recall(sessionId) {
      return (await redis.get(key(sessionId))) ?? undefined;
    },
  };
}
