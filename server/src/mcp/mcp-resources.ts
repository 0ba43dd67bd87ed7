// What an outside agent may read besides calling tools: one approval of the site, and the site's collections.
import { type Approval, type CapabilityHolder, hasCapabilities } from '@lumibase/shared';
import { ErrorCode, McpError, type ReadResourceResult, type Resource, type ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';

export const COLLECTIONS_URI = 'lumibase://collections';
const APPROVAL_URI = /^lumibase:\/\/approvals\/([^/?#]{1,100})$/;
/** MCP's "resource not found" (the spec's -32002). */
const RESOURCE_NOT_FOUND = -32002;

export interface SiteResources {
  /** The site's approval, or undefined for an id the site does not hold (another site's is the same undefined). */
  approval(id: string): Promise<Approval | undefined>;
  collections(): Promise<{ name: string; label?: string; fields: unknown[] }[]>;
}

export const RESOURCES: Resource[] = [
  {
    uri: COLLECTIONS_URI,
    name: 'collections',
    title: "The site's collections",
    description: "The site's collections with their fields (needs schema:read).",
    mimeType: 'application/json',
  },
];

export const RESOURCE_TEMPLATES: ResourceTemplate[] = [
  {
    uriTemplate: 'lumibase://approvals/{id}',
    name: 'approval',
    title: 'An approval',
    description: 'An approval of the site (a dangerous call waiting for a human, or decided): its status, who asked, who decided.',
    mimeType: 'application/json',
  },
];

/** One answer for every uri the site does not hold, so another site's ids reveal nothing. */
function notFound(uri: string): McpError {
  return new McpError(RESOURCE_NOT_FOUND, `Resource not found: ${uri.slice(0, 200)}`);
}

export async function readResource(uri: string, caller: CapabilityHolder, site: SiteResources): Promise<ReadResourceResult> {
  const json = (value: unknown): ReadResourceResult => ({
    contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(value) }],
  });
  if (uri === COLLECTIONS_URI) {
    if (!hasCapabilities(caller, ['schema:read'])) throw new McpError(ErrorCode.InvalidRequest, 'Reading collections needs schema:read');
    return json(await site.collections());
  }
  const id = APPROVAL_URI.exec(uri)?.[1];
  if (id === undefined) throw notFound(uri);
  const approval = await site.approval(decodeURIComponent(id)).catch((error: unknown) => {
    if (error instanceof URIError) return undefined;
    throw error;
  });
  if (!approval) throw notFound(uri);
  return json(approval);
}
