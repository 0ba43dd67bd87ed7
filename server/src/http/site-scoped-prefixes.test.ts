// Tenancy's prefixes are the first segments of the routes declared `site: true`, and a segment is site-scoped whole.
import { describe, expect, it } from 'vitest';
import { declareRoute, type RouteDeclaration } from './route.js';
import { siteScopedPrefixes } from './site-scoped-prefixes.js';

function at(path: string, site: boolean): RouteDeclaration {
  return declareRoute({
    method: 'get',
    path,
    summary: path,
    tag: 'Test',
    auth: 'session',
    site,
    success: { status: 200, description: 'Done' },
  });
}

describe('siteScopedPrefixes', () => {
  it('is the sorted first segments below the base of the site routes', () => {
    const routes = [
      at('/api/v1/things/:id', true),
      at('/api/v1/ai/chat', true),
      at('/api/v1/ai/skills/:name', true),
      at('/api/v1/sites', false),
      at('/api/v1/sitesx', false),
      at('/healthz', false),
    ];
    expect(siteScopedPrefixes(routes, '/api/v1')).toEqual(['/ai', '/things']);
  });

  it('refuses a route that is not site-scoped under a site-scoped segment, and a site route outside the base', () => {
    expect(() => siteScopedPrefixes([at('/api/v1/ai/chat', true), at('/api/v1/ai/providers', false)], '/api/v1')).toThrow(
      /get \/api\/v1\/ai\/providers is not site-scoped/,
    );
    expect(() => siteScopedPrefixes([at('/admin/things', true)], '/api/v1')).toThrow(TypeError);
  });
});
