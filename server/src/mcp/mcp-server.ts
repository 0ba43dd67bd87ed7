// One MCP server for one request of one caller in one site: tools are the skills through the Copilot's gate, resources
// are the site's approvals and collections. Built per request (stateless Streamable HTTP).
import type { CopilotPolicy, SkillOutcome } from '@lumibase/shared';
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
import type { HarnessActor, HarnessContext, ToolCall } from '../harness/ai-secure-harness.js';
import { RESOURCES, RESOURCE_TEMPLATES, type SiteResources, readResource } from './mcp-resources.js';
import { toolResult, toolsFor } from './mcp-tools.js';

export interface McpCaller {
  siteId: string;
  actor: HarnessActor;
  /** The MCP client's name (clientInfo.name), recorded on the approvals its calls create. */
  client: string;
}

export interface McpSite extends SiteResources {
  policy(): Promise<Pick<CopilotPolicy, 'skills'>>;
}

export interface McpServerOptions {
  harness: { execute(context: HarnessContext, call: ToolCall): Promise<SkillOutcome> };
  caller: McpCaller;
  site: McpSite;
  version: string;
  /** Errors that are not the caller's (the database is down): logged, answered without internals. */
  reportError: (error: unknown) => void;
}

export function createMcpServer({ harness, caller, site, version, reportError }: McpServerOptions): Server {
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
      const context: HarnessContext = {
        siteId: caller.siteId,
        actor: caller.actor,
        message: `MCP (${caller.client}): ${name.slice(0, 100)}`,
        via: 'mcp',
        client: caller.client,
      };
      return toolResult(await harness.execute(context, { name, arguments: args ?? {} }));
    }),
  );
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: RESOURCES }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({ resourceTemplates: RESOURCE_TEMPLATES }));
  server.setRequestHandler(
    ReadResourceRequestSchema,
    guarded((request) => readResource(request.params.uri, caller.actor, site)),
  );
  return server;
}
