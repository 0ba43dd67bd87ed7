// MCP sessions (Streamable HTTP's Mcp-Session-Id): issued at initialize, kept in Redis so that every API process knows
// them, scoped to the user and the site that opened them, ended by DELETE /mcp or after SESSION_IDLE_SECONDS unused.
// A session remembers the name its client gave itself (clientInfo.name) and what its calls read of the site's content:
// it is one run for the gate (docs/API.md, "Model Context Protocol").
import { randomUUID } from 'node:crypto';
import type { ReadBefore } from '@lumibase/shared';
import type { RedisClientType } from 'redis';
import { READ_BEFORE_MAX } from '../gate/content-reads.js';

const MAX_NAME = 100;
/** A session unused this long is gone: its id answers 404, and the agent initializes again. */
export const SESSION_IDLE_SECONDS = 24 * 3600;
/** The spec's alphabet for session ids (visible ASCII); ours are UUIDs, anything else is unknown. */
const SESSION_ID = /^[\x21-\x7e]{1,128}$/;

/** Whose session: an id presented by another user or in another site is an unknown one. */
export interface McpSessionScope {
  siteId: string;
  userId: string;
}

export interface McpSessionState {
  /** clientInfo.name as the client declared it (cleaned); undefined when it gave none worth showing. */
  client: string | undefined;
  /** What the session's calls have read of the site's content, oldest first (at most READ_BEFORE_MAX). */
  readBefore: ReadBefore[];
}

export interface McpSessions {
  open(scope: McpSessionScope, client: string | undefined): Promise<string>;
  /** The session's state, its idle time restarted; undefined for an unknown, ended or expired id, or another's. */
  find(scope: McpSessionScope, id: string): Promise<McpSessionState | undefined>;
  noteReads(scope: McpSessionScope, id: string, reads: readonly ReadBefore[]): Promise<void>;
  /** false when there was no such session. */
  close(scope: McpSessionScope, id: string): Promise<boolean>;
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

export function redisMcpSessions(redis: RedisClientType, prefix: string, idleSeconds = SESSION_IDLE_SECONDS): McpSessions {
  // One hash tag over scope and id: a session's two keys live in one Redis Cluster slot, so one MULTI covers both.
  const keys = ({ siteId, userId }: McpSessionScope, id: string) => {
    const session = `${prefix}:mcp-session:{${siteId}:${userId}:${id}}`;
    return { session, reads: `${session}:reads` };
  };
  return {
    async open(scope, client) {
      const id = randomUUID();
      const { session } = keys(scope, id);
      await redis
        .multi()
        .hSet(session, { client: client ?? '' })
        .expire(session, idleSeconds)
        .exec();
      return id;
    },
    async find(scope, id) {
      if (!SESSION_ID.test(id)) return undefined;
      const { session, reads } = keys(scope, id);
      const [client, listed] = (await redis
        .multi()
        .hGet(session, 'client')
        .lRange(reads, 0, -1)
        .expire(session, idleSeconds)
        .expire(reads, idleSeconds)
        .exec()) as unknown as [string | null, string[]];
      if (client === null) return undefined;
      return { client: client === '' ? undefined : client, readBefore: listed.map((entry) => JSON.parse(entry) as ReadBefore) };
    },
    async noteReads(scope, id, added) {
      if (added.length === 0) return;
      const { reads } = keys(scope, id);
      // The earliest reads are kept, as in a Copilot turn (content-reads.ts): a list past the cap grows no more.
      await redis
        .multi()
        .rPush(
          reads,
          added.map((entry) => JSON.stringify(entry)),
        )
        .lTrim(reads, 0, READ_BEFORE_MAX - 1)
        .expire(reads, idleSeconds)
        .exec();
    },
    async close(scope, id) {
      if (!SESSION_ID.test(id)) return false;
      const { session, reads } = keys(scope, id);
      const [removed] = (await redis.multi().del(session).del(reads).exec()) as unknown as [number, number];
      return removed > 0;
    },
  };
}
