// Where tenancy runs: the first path segment (below the API's base) of every route declared `site: true`. A segment
// holds site routes or none: a route that is not site-scoped there would be refused for want of an X-Site-Id.
import type { RouteDeclaration } from './route.js';

/** `'/api/v1/items/:collection'` under `'/api/v1'` → `'/items'`. */
function firstSegment(path: string, base: string): string {
  return `/${path.slice(base.length + 1).split('/')[0]}`;
}

/**
 * The prefixes, below `base`, tenancy guards (`['/ai', '/collections', …]`), sorted. Throws when a site route lies
 * outside `base`, or shares its first segment with a route that is not site-scoped.
 */
export function siteScopedPrefixes(routes: readonly RouteDeclaration[], base: string): string[] {
  const under = routes.filter((route) => route.path.startsWith(`${base}/`));
  for (const route of routes) {
    if (route.site && !under.includes(route)) throw new TypeError(`${route.method} ${route.path} is site-scoped but not under ${base}`);
  }
  const prefixes = new Set(under.filter((route) => route.site).map((route) => firstSegment(route.path, base)));
  for (const route of under) {
    if (!route.site && prefixes.has(firstSegment(route.path, base))) {
      throw new TypeError(
        `${route.method} ${route.path} is not site-scoped but lies under the site-scoped ${firstSegment(route.path, base)}`,
      );
    }
  }
  return [...prefixes].sort();
}
