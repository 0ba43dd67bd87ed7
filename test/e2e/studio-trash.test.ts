/// <reference lib="dom" />
// The Studio's Trash page in Chromium: a deleted collection is listed with its items, a restore refused while its
// name is taken says why, and restoring it brings the collection and its items back into the Studio.
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../support/api-client.js';
import { screenshot, studioPerTest } from './support/studio.js';

const { studio, browserAs } = studioPerTest('trash');

describe('Studio trash', () => {
  it('restores a deleted collection with its items, after explaining why it could not while the name was taken', async () => {
    const api = await ApiClient.signIn(studio().baseUrl, studio().admin.email, studio().admin.password);
    const siteId = await api.createSite('Trash Site');
    await api.createCollection(siteId, { name: 'recipes', fields: [{ name: 'title', type: 'string', required: true }] });
    const pancakes = await api.createItem(siteId, 'recipes', { title: 'Pancakes' });
    const soup = await api.createItem(siteId, 'recipes', { title: 'Soup' });
    await api.send('DELETE', '/collections/recipes', { siteId });
    // The name is free at once: someone makes a new, empty collection under it.
    await api.createCollection(siteId, { name: 'recipes', fields: [] });

    const page = await browserAs(studio().admin);
    await page.waitForURL(/\/content$/);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Trash' }).click();
    await page.waitForURL(/\/trash$/);
    const deleted = page.getByRole('row').filter({ hasText: '2 items' });
    await deleted.waitFor();
    expect(await deleted.textContent()).toContain('Collection');
    expect(await deleted.textContent()).toContain('recipes');

    // Restoring while the name is taken: refused, and the page says why.
    await deleted.getByRole('button', { name: 'Restore recipes' }).click();
    const refusal = page.getByTestId('restore-error');
    await refusal.waitFor();
    expect(await refusal.textContent()).toMatch(/recipes cannot be restored: .*exists again/);
    await screenshot(page, 'studio-trash-conflict');

    // The new collection goes (to the trash too: the page shows it live); now the restore goes through.
    await api.send('DELETE', '/collections/recipes', { siteId });
    await page.getByRole('row').filter({ hasText: '0 items' }).waitFor({ timeout: 10_000 });
    await deleted.getByRole('button', { name: 'Restore recipes' }).click();
    await page.getByText('Collection restored').waitFor();
    await deleted.waitFor({ state: 'detached' });
    await screenshot(page, 'studio-trash-restored');

    // Back in the Studio: the collection and its items, under their ids.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Collections', exact: true }).click();
    await page.locator('tr[data-collection="recipes"]').waitFor();
    await page
      .getByRole('link', { name: /recipes/ })
      .first()
      .click();
    await page.locator('tbody tr').filter({ hasText: 'Pancakes' }).waitFor();
    await page.locator('tbody tr').filter({ hasText: 'Soup' }).waitFor();
    const items = await api.send<{ id: string }[]>('GET', '/items/recipes', { siteId });
    expect(items.map((item) => item.id).sort()).toEqual([pancakes.id, soup.id].sort());
  });
});
