// Serves the built Studio (SvelteKit adapter-node handler) on the API's origin, so the session cookie just works.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { RequestHandler } from 'express';

export const DEFAULT_STUDIO_BUILD = join(import.meta.dirname, '../../../web/build');

export async function loadStudioHandler(buildDir = DEFAULT_STUDIO_BUILD): Promise<RequestHandler | undefined> {
  const handlerFile = join(buildDir, 'handler.js');
  if (!existsSync(handlerFile)) return undefined;
  const { handler } = (await import(pathToFileURL(handlerFile).href)) as { handler: RequestHandler };
  return handler;
}
