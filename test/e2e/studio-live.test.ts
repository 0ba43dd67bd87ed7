/// <reference lib="dom" />
// The Studio in Chromium, live: a second admin in another browser sees content change without reloading.
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../support/api-client.js';
import { screenshot, studioPerTest } from './support/studio.js';

const { studio, browserAs } = studioPerTest('live');

describe('Studio live updates', () => {
  it('shows another admin the new item, the new field and the deleted collection without a reload', async () => {
    const api = await ApiClient.signIn(studio().baseUrl, studio().admin.email, studio().admin.password);
    const siteId = await api.createSite('Live Site');
    const bea = { email: 'bea@studio.test', password: 'bea-password-1' };
    const user = await api.createUser({ ...bea, name: 'Bea Admin' });
    await api.addMember(siteId, user.id, 'admin');
    await api.createCollection(siteId, { name: 'posts', fields: [{ name: 'title', type: 'string', required: true }] });
    await api.createCollection(siteId, { name: 'drafts', fields: [] });

    const alice = await browserAs(studio().admin);
    // The only site there is: the Studio opens it without asking.
    await alice.waitForURL(/\/content$/);
    await alice.getByRole('link', { name: /posts/ }).click();
    await alice.getByText('No items yet').waitFor();

    const other = await browserAs(bea);
    await other.getByRole('link', { name: /posts/ }).click();
    await other.getByText('No items yet').waitFor();
    // Mark the page: a reload would drop this property, so its survival proves no reload happened.
    await other.evaluate(() => {
      (window as unknown as { marker: string }).marker = 'no-reload';
    });

    // Alice creates an item through the form; Bea's table shows it.
    await alice.getByRole('button', { name: 'New item' }).first().click();
    const form = alice.getByRole('dialog', { name: 'New item in posts' });
    await form.getByLabel(/^title/).fill('Written by Alice');
    await form.getByRole('button', { name: 'Create item' }).click();
    const started = Date.now();
    await other.locator('tbody tr').filter({ hasText: 'Written by Alice' }).waitFor({ timeout: 10_000 });
    console.log(`studio-live: the item appeared in the other browser ${Date.now() - started} ms after the click`);
    await screenshot(other, 'live-item-arrived');

    // A field added by Alice appears in Bea's fields tab.
    await other.getByRole('tab', { name: /Fields/ }).click();
    await api.send('POST', '/collections/posts/fields', { siteId, body: { name: 'summary', type: 'text' } });
    await other.locator('tr[data-field="summary"]').waitFor({ timeout: 10_000 });

    // A collection deleted elsewhere disappears from Bea's list.
    await other.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Collections', exact: true }).click();
    await other.locator('tr[data-collection="drafts"]').waitFor();
    await api.send('DELETE', '/collections/drafts', { siteId });
    await other.locator('tr[data-collection="drafts"]').waitFor({ state: 'detached', timeout: 10_000 });
    expect(await other.evaluate(() => (window as unknown as { marker?: string }).marker)).toBe('no-reload');
  });
});
