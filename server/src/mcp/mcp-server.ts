// One MCP server for one request of one caller's MCP session in one site: tools are the skills through the Copilot's gate
// (mcp-tool-call.ts), resources are the site's approvals and collections. Built per request: the session lives in Redis
// (mcp-sessions.ts), so the SDK's transport runs stateless and any server process answers any request.
import type { CopilotPolicy } from '@lumibase/shared';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { McpRun } from './mcp-run.js';
import { COLLECTIONS_URI, RESOURCES, RESOURCE_TEMPLATES, type SiteResources, readResource } from './mcp-resources.js';
import { type McpCaller, type McpToolCallOptions, callMcpTool } from './mcp-tool-call.js';
import { toolResult, toolsFor } from './mcp-tools.js';

export type { McpCaller } from './mcp-tool-call.js';

export interface McpSite extends SiteResources {
  policy(): Promise<Pick<CopilotPolicy, 'skills'>>;
}

export interface McpServerOptions {
  harness: McpToolCallOptions['harness'];
  caller: McpCaller;
  /** The caller's MCP session as the gate's run. */
  run: McpRun;
  modelCalls: McpToolCallOptions['modelCalls'];
  site: McpSite;
  version: string;
  /** Errors that are not the caller's (the database is down): logged, answered without internals. */
  reportError: (error: unknown) => void;
}

export function createMcpServer({ harness, caller, run, modelCalls, site, version, reportError }: McpServerOptions): Server {
  const server = new Server(
    { name: 'lumibase', title: 'LumiBase', version },
    {
      capabilities: { tools: { listChanged: false }, resources: { listChanged: false } },
      instructions:
        'LumiBase CMS skills for one site. Dangerous calls (schema changes, deletions) are not run at once: they answer ' +
        'pending_approval with an approvalId, a human admin decides in the Studio, and lumibase://approvals/{id} tells the outcome.',
    },
  );
  const guarded =
    <A, R>(handle: (request: A) => Promise<R>) =>
    async (request: A): Promise<R> => {
      try {
        return await handle(request);
      } catch (error) {
        if (error instanceof McpError) throw error;
        reportError(error);
        throw new McpError(ErrorCode.InternalError, 'LumiBase could not answer; try again shortly');
      }
    };

  server.setRequestHandler(
    ListToolsRequestSchema,
    guarded(async () => ({ tools: toolsFor(caller.actor, await site.policy()) })),
  );
  server.setRequestHandler(
    CallToolRequestSchema,
    guarded(async (request) => {
      const { name, arguments: args } = request.params;
      return toolResult(await callMcpTool({ harness, caller, run, modelCalls }, { name, arguments: args ?? {} }));
    }),
  );
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: RESOURCES }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({ resourceTemplates: RESOURCE_TEMPLATES }));
  server.setRequestHandler(
    ReadResourceRequestSchema,
    guarded(async (request) => {
      const result = await readResource(request.params.uri, caller.actor, site);
      // The site's schema text, as listCollections gives it: a content read of the session's run like that call.
      if (request.params.uri === COLLECTIONS_URI) await run.noteReads([{ skill: 'listCollections' }]);
      return result;
    }),
  );
  return server;
}
