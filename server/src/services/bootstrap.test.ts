// First start over the wire: the bootstrap superadmin (environment or a printed password) and the demo site.
import { afterAll, describe, expect, it } from 'vitest';
import { PasswordHasher } from '../security/password-hasher.js';
import type { Stores } from '../store/stores.js';
import { createTestStores } from '../../test-support/test-stores.js';
import { openTestDatabase, type TestDatabase } from '../../test-support/test-database.js';
import { bootstrapSuperadmin } from './bootstrap-superadmin.js';
import { createDemoSite } from './create-demo-site.js';
import { CollectionsService } from './collections.service.js';
import { ItemsService } from './items.service.js';
import { SitesService } from './sites.service.js';

const hasher = new PasswordHasher({ N: 1024, r: 8, p: 1 });
const databases: TestDatabase[] = [];

async function emptyStores(label: string): Promise<Stores> {
  const database = await openTestDatabase(label);
  databases.push(database);
  return (await createTestStores(database.connection)).stores;
}
afterAll(async () => {
  await Promise.all(databases.map((database) => database.close()));
});

describe('bootstrapSuperadmin', () => {
  it('generates a password and prints exactly one line with it when none is configured', async () => {
    const stores = await emptyStores('bootstrap_generated');
    const printed: string[] = [];
    const result = await bootstrapSuperadmin({
      users: stores.users,
      hasher,
      email: ' Admin@Example.TEST ',
      print: (line) => printed.push(line),
    });
    expect(result).toEqual({ created: true, email: 'admin@example.test', generatedPassword: true });
    expect(printed).toHaveLength(1);
    const [, email, password] = /^LumiBase admin: (\S+) (\S+)$/.exec(printed[0]!) ?? [];
    expect(email).toBe('admin@example.test');
    const credentials = await stores.users.findCredentials('admin@example.test');
    expect(credentials?.user.isSuperadmin).toBe(true);
    await expect(hasher.verify(password!, credentials!.passwordHash)).resolves.toBe(true);
  });

  it('uses the configured password and prints nothing', async () => {
    const stores = await emptyStores('bootstrap_configured');
    const printed: string[] = [];
    await bootstrapSuperadmin({
      users: stores.users,
      hasher,
      email: 'root@example.test',
      password: 'configured-pw',
      print: (line) => printed.push(line),
    });
    expect(printed).toEqual([]);
    const credentials = await stores.users.findCredentials('root@example.test');
    await expect(hasher.verify('configured-pw', credentials!.passwordHash)).resolves.toBe(true);
  });

  it('never changes existing users, even when the settings change', async () => {
    const stores = await emptyStores('bootstrap_existing');
    await bootstrapSuperadmin({ users: stores.users, hasher, email: 'root@example.test', password: 'first-password', print: () => {} });
    const printed: string[] = [];
    const again = await bootstrapSuperadmin({
      users: stores.users,
      hasher,
      email: 'other@example.test',
      password: 'second-password',
      print: (line) => printed.push(line),
    });
    const regenerated = await bootstrapSuperadmin({
      users: stores.users,
      hasher,
      email: 'root@example.test',
      print: (line) => printed.push(line),
    });
    expect(again).toEqual({ created: false });
    expect(regenerated).toEqual({ created: false });
    expect(printed).toEqual([]);
    expect(await stores.users.findByEmail('other@example.test')).toBeNull();
    const credentials = await stores.users.findCredentials('root@example.test');
    await expect(hasher.verify('first-password', credentials!.passwordHash)).resolves.toBe(true);
  });

  it('creates one superadmin when two processes start at once', async () => {
    const stores = await emptyStores('bootstrap_race');
    const results = await Promise.all(
      [1, 2, 3].map(() =>
        bootstrapSuperadmin({ users: stores.users, hasher, email: 'race@example.test', password: 'race-password', print: () => {} }),
      ),
    );
    expect(results.filter((result) => result.created)).toHaveLength(1);
    expect(await stores.users.count()).toBe(1);
  });
});

describe('createDemoSite', () => {
  it('creates "Demo" with a posts collection and a few valid items on a database without sites, once', async () => {
    const stores = await emptyStores('demo_site');
    const services = {
      sites: new SitesService(stores),
      collections: new CollectionsService(stores),
      items: new ItemsService(stores),
    };
    const site = await createDemoSite({ services, stores });
    expect(site?.name).toBe('Demo');
    const posts = await services.collections.get(site!.id, 'posts');
    expect(posts.fields.map((definition) => definition.name)).toEqual(['title', 'body', 'status', 'published_at']);
    expect((await services.items.list(site!.id, 'posts', { limit: 25, offset: 0 })).total).toBeGreaterThanOrEqual(3);
    expect(await createDemoSite({ services, stores })).toBeNull();
    expect(await stores.sites.count()).toBe(1);
  });
});
