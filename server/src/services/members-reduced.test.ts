// A membership replaced by one that holds less is announced (its sockets disconnect); one that holds as much or more is not.
import { ObjectId } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PasswordHasher } from '../security/password-hasher.js';
import { openTestDatabase, type TestDatabase } from '../../test-support/test-database.js';
import { createTestStores } from '../../test-support/test-stores.js';
import type { Stores } from '../store/stores.js';
import { DomainEvents, type DomainEventMap } from './domain-events.js';
import { type MemberActor, MembersService } from './members.service.js';

let database: TestDatabase;
let stores: Stores;
let members: MembersService;
let superadmin: MemberActor;
const announced: Array<['reduced' | 'removed', DomainEventMap['membership-reduced']]> = [];

beforeAll(async () => {
  database = await openTestDatabase('members_reduced');
  stores = (await createTestStores(database.connection)).stores;
  const events = new DomainEvents();
  events.on('membership-reduced', (event) => announced.push(['reduced', event]));
  events.on('membership-removed', (event) => announced.push(['removed', event]));
  members = new MembersService(stores, events, new PasswordHasher({ N: 1024, r: 8, p: 1 }));
  const user = await stores.users.create({ email: 'root@reduced.test', name: 'Root', passwordHash: 'x', isSuperadmin: true });
  superadmin = { user, capabilities: ['*'] };
});
afterAll(async () => database?.close());

async function someone() {
  return stores.users.create({
    email: `${new ObjectId().toHexString()}@reduced.test`,
    name: 'Someone',
    passwordHash: 'x',
    isSuperadmin: false,
  });
}

describe('MembersService.put', () => {
  it('announces membership-reduced when a role or an extra capability is taken away, with the canonical site id', async () => {
    const site = await stores.sites.create('Reduced');
    const user = await someone();
    await members.put(site.id, user.id, { role: 'viewer', capabilities: ['content:write'] }, superadmin);
    await members.put(site.id, user.id, { role: 'viewer' }, superadmin);
    await members.put(site.id, user.id, { role: 'admin' }, superadmin);
    await members.put(site.id.toUpperCase(), user.id, { role: 'editor' }, superadmin);
    expect(announced.splice(0)).toEqual([
      ['reduced', { siteId: site.id, userId: user.id }],
      ['reduced', { siteId: site.id, userId: user.id }],
    ]);
  });

  it('announces nothing for a new membership, the same one again, or one that holds more', async () => {
    const site = await stores.sites.create('Not reduced');
    const user = await someone();
    await members.put(site.id, user.id, { role: 'viewer' }, superadmin);
    await members.put(site.id, user.id, { role: 'viewer' }, superadmin);
    await members.put(site.id, user.id, { role: 'viewer', capabilities: ['content:write'] }, superadmin);
    await members.put(site.id, user.id, { role: 'editor', capabilities: ['content:write'] }, superadmin);
    await members.put(site.id, user.id, { role: 'admin' }, superadmin);
    expect(announced.splice(0)).toEqual([]);
  });
});
