// Which requests the idempotency middleware may run again after a lost run: those of the routes declared `resumable`.
import type { Request } from 'express';
import { openApiPaths } from './openapi/operation-object.js';
import type { RouteDeclaration } from './route.js';

/** `'/items/{collection}'` → `/^\/items\/[^/]+\/?$/`: a parameter is one raw segment, a trailing slash is allowed. */
function pattern(openApiPath: string): RegExp {
  const source = openApiPath
    .split(/(\{\w+\})/)
    .map((part) => (/^\{\w+\}$/.test(part) ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}\\/?$`);
}

/**
 * The idempotency middleware's `resumable`, from the declarations: whether `request` (its path relative to `base`,
 * where the middleware is mounted) is a call of a route declared `resumable`. Throws for such a route outside `base`.
 */
export function resumableRequest(
  routes: readonly RouteDeclaration[],
  base: string,
): (request: Pick<Request, 'method' | 'path'>) => boolean {
  const matchers = routes
    .filter((route) => route.resumable)
    .map((route) => {
      if (!route.path.startsWith(`${base}/`)) throw new TypeError(`${route.method} ${route.path} is resumable but not under ${base}`);
      return { method: route.method.toUpperCase(), patterns: openApiPaths(route.path.slice(base.length)).map(pattern) };
    });
  return (request) =>
    matchers.some(({ method, patterns }) => request.method === method && patterns.some((candidate) => candidate.test(request.path)));
}
