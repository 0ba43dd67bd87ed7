/// <reference lib="dom" />
// The Studio in Chromium: a collection created, fields added, an item created and edited through the generated forms,
// validation errors shown next to their fields, and deletions behind a confirmation.
import { beforeEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../support/api-client.js';
import { inputError, screenshot, studioPerTest } from './support/studio.js';
import type { Page } from 'playwright-core';

const { studio, browserAs } = studioPerTest('content');
let api: ApiClient;
let siteId: string;
beforeEach(async () => {
  api = await ApiClient.signIn(studio().baseUrl, studio().admin.email, studio().admin.password);
  siteId = await api.createSite('Content Site');
});

async function signedInPage(options?: { width?: number }): Promise<Page> {
  const page = await browserAs(studio().admin, options);
  await page.waitForURL(/\/content$/);
  return page;
}

async function addField(page: Page, field: { name: string; type: string; required?: boolean; enumValues?: string }) {
  await page.getByRole('button', { name: 'Add field' }).first().click();
  const dialog = page.getByRole('dialog', { name: /Add a field/ });
  await dialog.getByLabel('Name').fill(field.name);
  await dialog.getByLabel('Type').selectOption(field.type);
  if (field.enumValues) await dialog.getByLabel('Options').fill(field.enumValues);
  if (field.required) await dialog.getByLabel('Required').check();
  await dialog.getByRole('button', { name: 'Add field' }).click();
  await dialog.waitFor({ state: 'hidden' });
  await page.locator(`tr[data-field="${field.name}"]`).waitFor();
}

describe('Studio content', () => {
  it('creates a collection, adds fields, creates and edits an item, and shows validation errors by their fields', async () => {
    const page = await signedInPage();
    await page.getByText('No collections yet').waitFor();

    // Create the collection; the Studio opens its fields.
    await page.getByRole('button', { name: 'New collection' }).first().click();
    const create = page.getByRole('dialog', { name: 'New collection' });
    await create.getByLabel(/^Name/).fill('Bad Name');
    await create.getByRole('button', { name: 'Create collection' }).click();
    expect(await inputError(page, 'collection-name')).toMatch(/lowercase letters/);
    await create.getByLabel(/^Name/).fill('articles');
    await create.getByLabel(/^Label/).fill('Articles');
    await create.getByRole('button', { name: 'Create collection' }).click();
    await page.waitForURL(/\/content\/articles\?tab=fields$/);
    await page.getByText('No fields yet').waitFor();

    await addField(page, { name: 'title', type: 'string', required: true });
    await addField(page, { name: 'views', type: 'integer' });
    await addField(page, { name: 'status', type: 'enum', enumValues: 'draft\npublished' });
    await addField(page, { name: 'featured', type: 'boolean' });
    await addField(page, { name: 'meta', type: 'json' });
    expect(await page.locator('tr[data-field]').count()).toBe(5);
    expect(await page.locator('tr[data-field="title"]').textContent()).toContain('Required');
    await screenshot(page, 'collection-fields');

    // A field name the API refuses (taken): its message appears by the name input.
    await page.getByRole('button', { name: 'Add field' }).first().click();
    const duplicate = page.getByRole('dialog', { name: /Add a field/ });
    await duplicate.getByLabel('Name').fill('title');
    await duplicate.getByRole('button', { name: 'Add field' }).click();
    await page.locator('#field-name-error').waitFor();
    expect(await inputError(page, 'field-name')).toMatch(/already has a field named title/);
    await duplicate.getByRole('button', { name: 'Cancel' }).click();

    // Items: the form is generated from the fields.
    await page.getByRole('tab', { name: /Items/ }).click();
    await page.getByText('No items yet').waitFor();
    await page.getByRole('button', { name: 'New item' }).first().click();
    const form = page.getByRole('dialog', { name: 'New item in articles' });
    // Numbers are typed as text and read the reader's way (studio-item-input.test.ts); phones get the digit keyboard.
    expect(await form.getByLabel(/^Views/).getAttribute('inputmode')).toBe('numeric');
    expect(await form.getByLabel(/^\s*Featured/).getAttribute('type')).toBe('checkbox');
    expect(await form.getByLabel(/^Status/).evaluate((element) => element.tagName)).toBe('SELECT');

    // Submitted without the required title: the API's 400 detail (data.title) shows next to the title input.
    await form.getByLabel(/^Views/).fill('7');
    await form.getByRole('button', { name: 'Create item' }).click();
    await page.locator('#item-field-title-error').waitFor();
    expect(await inputError(page, 'item-field-title')).toBe('Required');
    expect(await form.getByLabel(/^Title/).getAttribute('aria-invalid')).toBe('true');

    // JSON that does not parse is caught before sending.
    await form.getByLabel(/^Title/).fill('Hello LumiBase');
    await form.getByLabel(/^Meta/).fill('{"tags": [');
    await form.getByRole('button', { name: 'Create item' }).click();
    await page.locator('#item-field-meta-error').waitFor();
    expect(await inputError(page, 'item-field-meta')).toMatch(/^Invalid JSON/);
    await screenshot(page, 'item-form-validation');

    await form.getByLabel(/^Meta/).fill('{"tags": ["news"]}');
    await form.getByLabel(/^Status/).selectOption('published');
    await form.getByLabel(/^\s*Featured/).check();
    await form.getByRole('button', { name: 'Create item' }).click();
    await form.waitFor({ state: 'hidden' });
    const row = page.locator('tbody tr').filter({ hasText: 'Hello LumiBase' });
    await row.waitFor();
    expect(await row.textContent()).toContain('published');
    expect(await row.textContent()).toContain('Yes');
    await screenshot(page, 'collection-items');

    // Edit it: the form starts from the item; only the change is sent.
    await page.getByRole('button', { name: 'Edit Hello LumiBase' }).click();
    const edit = page.getByRole('dialog', { name: /Edit item/ });
    expect(await edit.getByLabel(/^Title/).inputValue()).toBe('Hello LumiBase');
    expect(await edit.getByLabel(/^Views/).inputValue()).toBe('7');
    expect(JSON.parse(await edit.getByLabel(/^Meta/).inputValue())).toEqual({ tags: ['news'] });
    await edit.getByLabel(/^Views/).fill('2.5');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    expect(await inputError(page, 'item-field-views')).toBe('Enter a whole number');
    await edit.getByLabel(/^Title/).fill('Hello again');
    await edit.getByLabel(/^Views/).fill('8');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await edit.waitFor({ state: 'hidden' });
    await page.locator('tbody tr').filter({ hasText: 'Hello again' }).waitFor();
    expect(await page.locator('tbody tr').filter({ hasText: 'Hello LumiBase' }).count()).toBe(0);

    // What the API stored is what the form sent: typed values.
    const [stored] = await api.send<{ data: Record<string, unknown> }[]>('GET', '/items/articles', { siteId });
    expect(stored?.data).toEqual({ title: 'Hello again', views: 8, status: 'published', featured: true, meta: { tags: ['news'] } });
  });

  it('edits and removes fields, pages through items, and deletes an item and the collection after confirming', async () => {
    await api.createCollection(siteId, { name: 'notes', fields: [{ name: 'body', type: 'text', required: false }] });
    await api.createCollection(siteId, {
      name: 'authors',
      label: 'Authors',
      fields: [
        { name: 'name', type: 'string', required: true },
        { name: 'bio', type: 'text' },
        { name: 'born', type: 'datetime' },
        { name: 'rank', type: 'integer' },
        { name: 'active', type: 'boolean' },
        { name: 'links', type: 'json' },
      ],
    });
    for (let index = 1; index <= 27; index += 1) await api.createItem(siteId, 'notes', { body: `Note ${String(index).padStart(2, '0')}` });
    const page = await signedInPage({ width: 1024 });

    await page.getByText('Content Site · 2 collections').waitFor();
    await screenshot(page, 'collections');
    await page.getByRole('link', { name: /notes/ }).click();
    await page.waitForURL(/\/content\/notes$/);
    await page.getByText('1–25 of 27').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1024);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('26–27 of 27').waitFor();
    expect(await page.locator('tbody tr').count()).toBe(2);

    // Delete one item of this page, confirming first; Cancel keeps it.
    const victim = (await page.locator('tbody tr td').first().textContent())?.trim() ?? '';
    expect(victim).toMatch(/^Note \d\d$/);
    await page.getByRole('button', { name: `Delete ${victim}` }).click();
    const confirmItem = page.getByRole('dialog', { name: 'Delete this item?' });
    expect(await confirmItem.textContent()).toContain(victim);
    await confirmItem.getByRole('button', { name: 'Cancel' }).click();
    await confirmItem.waitFor({ state: 'hidden' });
    expect(await page.locator('tbody tr').filter({ hasText: victim }).count()).toBe(1);
    await page.getByRole('button', { name: `Delete ${victim}` }).click();
    await confirmItem.getByRole('button', { name: 'Delete item' }).click();
    await page.getByText('26–26 of 26').waitFor();
    expect(await page.locator('tbody tr').filter({ hasText: victim }).count()).toBe(0);

    // Fields: make body required, add and remove a field.
    await page.getByRole('tab', { name: /Fields/ }).click();
    await page.getByRole('button', { name: 'Edit field body' }).click();
    const editField = page.getByRole('dialog', { name: 'Edit field body' });
    expect(await editField.getByLabel('Name').isDisabled()).toBe(true);
    await editField.getByLabel('Required').check();
    await editField.getByRole('button', { name: 'Save field' }).click();
    await editField.waitFor({ state: 'hidden' });
    await page.locator('tr[data-field="body"]').filter({ hasText: 'Required' }).waitFor();
    await addField(page, { name: 'pinned', type: 'boolean' });
    await page.getByRole('button', { name: 'Remove field pinned' }).click();
    await page.getByRole('dialog', { name: 'Remove field pinned?' }).getByRole('button', { name: 'Remove field' }).click();
    await page.locator('tr[data-field="pinned"]').waitFor({ state: 'detached' });
    await screenshot(page, 'collection-fields-1024');

    // Delete the collection from its page.
    await page.getByRole('button', { name: 'Delete collection' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete collection notes?' });
    expect(await confirm.textContent()).toContain('26 items');
    await screenshot(page, 'confirm-delete-collection');
    await confirm.getByRole('button', { name: 'Delete collection' }).click();
    await page.waitForURL(/\/content$/);
    await page.locator('tr[data-collection="notes"]').waitFor({ state: 'detached' });
    expect(await page.locator('tr[data-collection]').count()).toBe(1);
  });
});
