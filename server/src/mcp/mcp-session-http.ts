// The session of an MCP request, as the Streamable HTTP transport's spec has it: an initialize request opens one and
// its answer carries the id in Mcp-Session-Id; every other request carries that id (none → 400) and an id the server
// does not know for this user in this site (never issued, ended, expired, another's) → 404, after which a client
// initializes again. The answers are JSON-RPC errors with no id, as the SDK's own transport gives them.
import type { Request, Response } from 'express';
import { type McpRun, sessionRun } from './mcp-run.js';
import { type McpSessionScope, type McpSessions, cleanClientName } from './mcp-sessions.js';

export const SESSION_HEADER = 'Mcp-Session-Id';

export interface McpRequestSession {
  id: string;
  /** clientInfo.name of the initialize that opened the session. */
  client: string | undefined;
  run: McpRun;
}

/** The initialize request, alone (a batch may not carry it with other messages: the SDK answers that with 400). */
function initializeOf(body: unknown): { clientInfo?: { name?: unknown } } | undefined {
  const messages = Array.isArray(body) ? body : [body];
  if (messages.length !== 1) return undefined;
  const { method, params } = (typeof messages[0] === 'object' && messages[0] !== null ? messages[0] : {}) as {
    method?: unknown;
    params?: { clientInfo?: { name?: unknown } };
  };
  return method === 'initialize' ? (params ?? {}) : undefined;
}

export function refuse(response: Response, status: 400 | 404, message: string): undefined {
  response.status(status).json({ jsonrpc: '2.0', error: { code: status === 404 ? -32001 : -32000, message }, id: null });
  return undefined;
}

/** The id a request names, or undefined after answering 400 (none) or 404 (not a session of this user in this site). */
export async function namedSession(
  request: Request,
  response: Response,
  sessions: McpSessions,
  scope: McpSessionScope,
): Promise<{ id: string; state: NonNullable<Awaited<ReturnType<McpSessions['find']>>> } | undefined> {
  const id = request.get(SESSION_HEADER);
  if (!id) return refuse(response, 400, `Bad Request: ${SESSION_HEADER} header is required (initialize first)`);
  const state = await sessions.find(scope, id);
  if (!state) return refuse(response, 404, 'Session not found');
  return { id, state };
}

/** The request's session: opened by an initialize request (its id set on the answer), else the one it names. */
export async function sessionOf(
  request: Request,
  response: Response,
  sessions: McpSessions,
  scope: McpSessionScope,
): Promise<McpRequestSession | undefined> {
  const initialize = initializeOf(request.body);
  if (initialize) {
    const client = cleanClientName(initialize.clientInfo?.name);
    const id = await sessions.open(scope, client);
    // Set before the SDK writes its answer: Node merges it into the SDK's writeHead.
    response.setHeader(SESSION_HEADER, id);
    return { id, client, run: sessionRun(sessions, scope, id, { client, readBefore: [] }) };
  }
  const named = await namedSession(request, response, sessions, scope);
  if (!named) return undefined;
  return { id: named.id, client: named.state.client, run: sessionRun(sessions, scope, named.id, named.state) };
}
