// The routes an Express app answers, read from its router stack: what the OpenAPI document must describe.
import type { Express } from 'express';

export interface RouteEntry {
  method: string;
  /** Express syntax, as mounted (`/api/v1/items/:collection`). */
  path: string;
}

/** A router mounted whole (bull-board's dashboard) is one documented entry point, not each of its own routes. */
export const OPAQUE_MOUNT = Symbol.for('lumibase.opaqueMount');

interface LayerLike {
  rawPath?: string | string[];
  route?: { path: string | string[]; methods: Record<string, boolean> };
  handle?: { stack?: LayerLike[]; [OPAQUE_MOUNT]?: boolean };
}

function joinPaths(prefix: string, path: string): string {
  const joined = `${prefix}/${path}`.replace(/\/+/g, '/');
  return joined.length > 1 ? joined.replace(/\/$/, '') : joined;
}

function asArray(path: string | string[] | undefined): string[] {
  if (path === undefined) return ['/'];
  return Array.isArray(path) ? path : [path];
}

function walk(stack: LayerLike[], prefix: string, into: RouteEntry[]): void {
  for (const layer of stack) {
    if (layer.route) {
      for (const path of asArray(layer.route.path)) {
        for (const [method, enabled] of Object.entries(layer.route.methods)) {
          if (enabled && method !== '_all') into.push({ method, path: joinPaths(prefix, path) });
        }
      }
    } else if (layer.handle?.[OPAQUE_MOUNT]) {
      for (const path of asArray(layer.rawPath)) into.push({ method: 'get', path: joinPaths(prefix, path) });
    } else if (Array.isArray(layer.handle?.stack)) {
      for (const path of asArray(layer.rawPath)) walk(layer.handle.stack, joinPaths(prefix, path), into);
    }
  }
}

/** Every (method, path) the app routes, sub-routers included, deduplicated and sorted. */
export function listRoutes(app: Express): RouteEntry[] {
  const routes: RouteEntry[] = [];
  walk((app as unknown as { router: { stack: LayerLike[] } }).router.stack, '', routes);
  const unique = new Map(routes.map((route) => [`${route.method} ${route.path}`, route]));
  return [...unique.values()].sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
}
