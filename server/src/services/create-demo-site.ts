// The demo content an all-in-one start puts in an empty database, so a first visit has something to show.
import type { SiteView } from '@lumibase/shared';
import type { Stores } from '../store/stores.js';
import type { Services } from './index.js';

export interface DemoSiteOptions {
  services: Pick<Services, 'sites' | 'collections' | 'items'>;
  stores: Pick<Stores, 'sites'>;
}

const POSTS = [
  {
    title: 'Welcome to LumiBase',
    body: 'This post lives in the demo site. Edit it, or ask the Copilot to.',
    status: 'published',
    published_at: '2024-05-01T09:00:00.000Z',
  },
  {
    title: 'Collections and fields',
    body: 'A collection is a content type; its fields decide what every item holds.',
    status: 'published',
    published_at: '2024-05-02T09:00:00.000Z',
  },
  { title: 'Approvals', body: 'Dangerous Copilot actions wait for an admin to approve them.', status: 'draft' },
];

/**
 * Creates the "Demo" site with a `posts` collection and a few items, only when there is no site
 * at all (the superadmin alone does not make a database non-empty). Returns the site, or null
 * when it did nothing. The all-in-one entry calls it unless LUMIBASE_DEMO=false.
 */
export async function createDemoSite({ services, stores }: DemoSiteOptions): Promise<SiteView | null> {
  if ((await stores.sites.count()) > 0) return null;
  const site = await services.sites.create('Demo');
  await services.collections.create(site.id, {
    name: 'posts',
    label: 'Posts',
    fields: [
      { name: 'title', type: 'string', required: true },
      { name: 'body', type: 'text', required: false },
      { name: 'status', type: 'enum', required: true, options: { values: ['draft', 'published'] } },
      { name: 'published_at', type: 'datetime', required: false },
    ],
  });
  // Oldest first, so the list (newest first) shows the draft on top.
  for (const post of POSTS) await services.items.create(site.id, 'posts', post);
  return site;
}
