// POST /mcp: Model Context Protocol over Streamable HTTP, for outside agents. The same authentication and tenancy as
// /api/v1 (Bearer token, X-Site-Id); MCP sessions of our own in Redis (mcp-session-http.ts), so the SDK's transport and
// a fresh MCP server run per request over the Copilot's gate, on whichever server process the request reaches.
import { DomainError, UnauthenticatedError } from '@lumibase/shared';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { type NextFunction, type Request, type Response, Router } from 'express';
import { actorOf } from '../http/ai.router.js';
import { authenticate } from '../http/authenticate.js';
import { jsonBody } from '../http/json-body.js';
import { currentSiteId } from '../http/require-capabilities.js';
import { tenancy } from '../http/tenancy.js';
import type { Logger } from '../logger.js';
import type { AuthService } from '../services/auth.service.js';
import type { SiteAccessService } from '../services/site-access.service.js';
import { type McpServerOptions, type McpSite, createMcpServer } from './mcp-server.js';
import { namedSession, sessionOf } from './mcp-session-http.js';
import type { McpSessionScope, McpSessions } from './mcp-sessions.js';

export const MCP_PATH = '/mcp';
const SERVER_VERSION = '0.1.0';

export interface McpRouterOptions {
  auth: Pick<AuthService, 'authenticate'>;
  access: Pick<SiteAccessService, 'resolve'>;
  studioOrigin?: string | undefined;
  harness: McpServerOptions['harness'];
  /** The per-user model-call limit (CHAT_RATE_LIMIT_PER_MINUTE) shared with /ai/chat, /ai/skills and /ai/search. */
  modelCalls: McpServerOptions['modelCalls'];
  /** The caller's site as MCP reads it. */
  siteFor: (siteId: string) => McpSite;
  sessions: McpSessions;
  logger: Logger;
}

const scopeOf = (request: Request): McpSessionScope => ({ siteId: currentSiteId(request), userId: actorOf(request).id });

export function createMcpRouter({ auth, access, studioOrigin, harness, modelCalls, siteFor, sessions, logger }: McpRouterOptions): Router {
  const router = Router();
  const signedIn = [authenticate({ auth, studioOrigin }), tenancy({ access })];
  router.post(MCP_PATH, ...signedIn, jsonBody(), async (request, response) => {
    const scope = scopeOf(request);
    const session = await sessionOf(request, response, sessions, scope);
    if (!session) return;
    const server = createMcpServer({
      harness,
      modelCalls,
      caller: { siteId: scope.siteId, actor: actorOf(request), client: session.client },
      run: session.run,
      site: siteFor(scope.siteId),
      version: SERVER_VERSION,
      reportError: (error) => logger.error({ err: error, siteId: scope.siteId }, 'MCP request failed'),
    });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    response.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request, response, request.body);
  });
  // DELETE ends the session it names (the spec's way for a client to leave); 404 for one already gone.
  router.delete(MCP_PATH, ...signedIn, async (request, response) => {
    const scope = scopeOf(request);
    const named = await namedSession(request, response, sessions, scope);
    if (!named) return;
    await sessions.close(scope, named.id);
    response.status(200).end();
  });
  // No server-sent stream to open (GET): every answer comes with its POST.
  router.all(MCP_PATH, (_request, response) => {
    response
      .status(405)
      .set('Allow', 'POST, DELETE')
      .json({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: use POST (and DELETE to end a session)' }, id: null });
  });
  // docs/API.md: no or an invalid token → 401 with WWW-Authenticate: Bearer (the error envelope follows as everywhere).
  router.use(MCP_PATH, (error: unknown, _request: Request, response: Response, next: NextFunction) => {
    if (error instanceof UnauthenticatedError) response.set('WWW-Authenticate', 'Bearer');
    next(error);
  });
  return router;
}

/** An approval the site does not hold, in any way, is one undefined: ids of other sites reveal nothing. */
export async function orUndefined<T>(lookup: Promise<T>): Promise<T | undefined> {
  try {
    return await lookup;
  } catch (error) {
    if (error instanceof DomainError) return undefined;
    throw error;
  }
}
