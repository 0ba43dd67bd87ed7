// docker compose cannot run here (no Docker engine), so its wiring is checked against the code it runs.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SETTINGS } from '@lumibase/server/config';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const root = join(import.meta.dirname, '../..');
const compose = parse(readFileSync(join(root, 'docker-compose.yml'), 'utf8')) as {
  services: Record<
    string,
    { build?: unknown; command?: string[]; environment?: Record<string, string>; image?: string; healthcheck?: unknown }
  >;
};
const scripts = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
const appServices = Object.entries(compose.services).filter(([, service]) => service.build !== undefined);

describe('docker-compose.yml', () => {
  it('runs MongoDB 7 as a replica set with a health check, and Redis 7 with AOF and noeviction', () => {
    const { mongo, redis } = compose.services;
    expect(mongo?.image).toBe('mongo:7');
    expect(mongo?.command).toContain('--replSet');
    expect(JSON.stringify(mongo?.healthcheck)).toContain('rs.initiate');
    expect(redis?.image).toBe('redis:7');
    expect(redis?.command).toEqual(expect.arrayContaining(['--appendonly', 'yes', '--maxmemory-policy', 'noeviction']));
  });

  it('builds a server and a worker from the repository', () => {
    expect(appServices.map(([name]) => name).sort()).toEqual(['server', 'worker']);
  });

  it.each(appServices)('%s sets only variables the config module accepts', (_name, service) => {
    const unknown = Object.keys(service.environment ?? {}).filter((variable) => !(variable in SETTINGS));
    expect(unknown).toEqual([]);
  });

  it.each(appServices)('%s runs a script that package.json defines', (_name, service) => {
    const [npm, run, script] = service.command ?? [];
    expect([npm, run]).toEqual(['npm', 'run']);
    expect(Object.keys(scripts)).toContain(script);
  });

  it.each(appServices)('%s points at the compose MongoDB and Redis, never at embedded defaults', (_name, service) => {
    expect(service.environment?.MONGODB_URI).toMatch(/^mongodb:\/\/mongo:27017/);
    expect(service.environment?.REDIS_URL).toBe('redis://redis:6379');
  });
});
