// POST /mcp: Model Context Protocol over stateless Streamable HTTP, for outside agents. The same authentication and
// tenancy as /api/v1 (Bearer token, X-Site-Id), then a fresh MCP server per request over the Copilot's gate.
import { DomainError, UnauthenticatedError } from '@lumibase/shared';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { type NextFunction, type Request, type Response, Router } from 'express';
import { authenticate } from '../http/authenticate.js';
import { jsonBody } from '../http/json-body.js';
import { currentSiteId } from '../http/require-capabilities.js';
import { tenancy } from '../http/tenancy.js';
import type { Logger } from '../logger.js';
import type { AuthService } from '../services/auth.service.js';
import type { SiteAccessService } from '../services/site-access.service.js';
import { type ClientNames, cleanClientName } from './client-names.js';
import { type McpServerOptions, type McpSite, createMcpServer } from './mcp-server.js';
import { actorOf } from '../http/ai.router.js';

export const MCP_PATH = '/mcp';
const SERVER_VERSION = '0.1.0';
const UNNAMED_CLIENT = 'an MCP client';

export interface McpRouterOptions {
  auth: Pick<AuthService, 'authenticate'>;
  access: Pick<SiteAccessService, 'resolve'>;
  studioOrigin?: string | undefined;
  harness: McpServerOptions['harness'];
  /** The caller's site as MCP reads it. */
  siteFor: (siteId: string) => McpSite;
  clientNames: ClientNames;
  logger: Logger;
}

/** clientInfo.name of an initialize request (alone or in a batch), if this request is one. */
function initializingClient(body: unknown): string | undefined {
  for (const message of Array.isArray(body) ? body : [body]) {
    const { method, params } = (typeof message === 'object' && message !== null ? message : {}) as {
      method?: unknown;
      params?: { clientInfo?: { name?: unknown } };
    };
    if (method === 'initialize') return cleanClientName(params?.clientInfo?.name);
  }
  return undefined;
}

async function clientOf(request: Request, names: ClientNames): Promise<string> {
  const sessionId = request.context.sessionId;
  const initializing = initializingClient(request.body);
  if (initializing) {
    if (sessionId) await names.remember(sessionId, initializing);
    return initializing;
  }
  const remembered = sessionId ? await names.recall(sessionId) : undefined;
  return remembered ?? cleanClientName(request.get('user-agent')) ?? UNNAMED_CLIENT;
}

export function createMcpRouter({ auth, access, studioOrigin, harness, siteFor, clientNames, logger }: McpRouterOptions): Router {
  const router = Router();
  router.post(MCP_PATH, authenticate({ auth, studioOrigin }), tenancy({ access }), jsonBody(), async (request, response) => {
    const siteId = currentSiteId(request);
    const caller = { siteId, actor: actorOf(request), client: await clientOf(request, clientNames) };
    const server = createMcpServer({
      harness,
      caller,
      site: siteFor(siteId),
      version: SERVER_VERSION,
      reportError: (error) => logger.error({ err: error, siteId }, 'MCP request failed'),
    });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    response.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request, response, request.body);
  });
  // Stateless: no stream to open (GET) and no session to end (DELETE).
  router.all(MCP_PATH, (_request, response) => {
    response
      .status(405)
      .set('Allow', 'POST')
      .json({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this server is stateless, use POST' }, id: null });
  });
  // API.md: no or an invalid token → 401 with WWW-Authenticate: Bearer (the error envelope follows as everywhere).
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
