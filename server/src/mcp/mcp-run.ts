// An MCP session is one run for the gate (docs/API.md, "Model Context Protocol"): what its calls read of the site's content
// holds a later safe write at the policy's afterContentRead, as in a Copilot turn. One request's view of the session.
import type { ReadBefore } from '@lumibase/shared';
import { READ_BEFORE_MAX } from '../gate/content-reads.js';
import type { McpSessionScope, McpSessions, McpSessionState } from './mcp-sessions.js';

export interface McpRun {
  /** What the session's calls have read so far (earlier requests' and this one's). */
  readBefore(): ReadBefore[];
  /** Adds what a call read, here and in the session (for the requests that follow, on any server). */
  noteReads(reads: readonly ReadBefore[]): Promise<void>;
}

export function sessionRun(sessions: McpSessions, scope: McpSessionScope, id: string, state: McpSessionState): McpRun {
  const read = state.readBefore.slice(0, READ_BEFORE_MAX);
  return {
    readBefore: () => [...read],
    async noteReads(added) {
      for (const entry of added) if (read.length < READ_BEFORE_MAX) read.push(entry);
      await sessions.noteReads(scope, id, added);
    },
  };
}
