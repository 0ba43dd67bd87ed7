/// <reference lib="dom" />
// Issue 32 (8 and 9) in Chromium at 1440×900: the item form reads decimals the reader's way ("12,50" is 12.5 in German,
// refused in words in English, never 1250), refuses 1e400, stops text at the field's limit and shows the server's
// length refusal at the field; an item deleted from the Studio goes to the Trash for the days the prompt names and
// comes back from the Trash page under its id.
import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../support/api-client.js';
import { inputError, screenshot, studioPerTest } from './support/studio.js';

const { studio, browserAs } = studioPerTest('item-input');
const DESKTOP = { width: 1440, height: 900 };
let api: ApiClient;
let siteId: string;

beforeEach(async () => {
  api = await ApiClient.signIn(studio().baseUrl, studio().admin.email, studio().admin.password);
  siteId = await api.createSite('Bakery');
  await api.createCollection(siteId, {
    name: 'products',
    fields: [
      { name: 'title', type: 'string', required: true },
      { name: 'price', type: 'number' },
      { name: 'code', type: 'string', options: { maxLength: 10 } },
    ],
  });
});

async function openProducts(locale?: string): Promise<Page> {
  const page = await browserAs(studio().admin, { ...DESKTOP, ...(locale ? { locale } : {}) });
  await page.waitForURL(/\/content$/);
  await page.goto(`${studio().baseUrl}/content/products`);
  return page;
}

type Product = { id: string; data: { title: string; price?: number; code?: string } };
const products = () => api.send<Product[]>('GET', '/items/products', { siteId });

describe('the item form', () => {
  it('in English: refuses "12,50" and 1e400 at the price, stops the title at 1,000 characters, stores 12.5 from "12.50"', async () => {
    await api.createItem(siteId, 'products', { title: 'Lemon tart', price: 4.5 });
    const page = await openProducts('en-US');
    await page.locator('tbody tr').filter({ hasText: 'Lemon tart' }).waitFor();
    await page.getByRole('button', { name: 'New item' }).first().click();
    const form = page.getByRole('dialog', { name: 'New item in products' });
    expect(await form.getByLabel(/^Title/).getAttribute('maxlength')).toBe('1000');
    expect(await form.getByLabel(/^Code/).getAttribute('maxlength')).toBe('10');
    expect(await form.getByLabel(/^Price/).getAttribute('inputmode')).toBe('decimal');

    // Typing past the limit stops at it.
    await form.getByLabel(/^Title/).fill('Croissant');
    await form.getByLabel(/^Code/).pressSequentially('CR-2026-0001');
    expect(await form.getByLabel(/^Code/).inputValue()).toBe('CR-2026-00');

    await form.getByLabel(/^Price/).fill('12,50');
    await form.getByRole('button', { name: 'Create item' }).click();
    await page.locator('#item-field-price-error').waitFor();
    expect(await inputError(page, 'item-field-price')).toBe('Write decimals with a point: 12.50');
    expect(await form.getByLabel(/^Price/).getAttribute('aria-invalid')).toBe('true');
    await screenshot(page, 'item-input-decimal-refused-1440');

    await form.getByLabel(/^Price/).fill('1e400');
    await form.getByRole('button', { name: 'Create item' }).click();
    await page.locator('#item-field-price-error').waitFor();
    expect(await inputError(page, 'item-field-price')).toMatch(/^This number is too large/);
    // Nothing was sent, so nothing was "created".
    expect(await page.getByText('Item created').count()).toBe(0);
    expect((await products()).map((item) => item.data.title)).toEqual(['Lemon tart']);

    await form.getByLabel(/^Price/).fill('12.50');
    await form.getByRole('button', { name: 'Create item' }).click();
    await form.waitFor({ state: 'hidden' });
    await page.getByText('Item created').waitFor();
    const croissant = (await products()).find((item) => item.data.title === 'Croissant');
    expect(croissant?.data).toEqual({ title: 'Croissant', price: 12.5, code: 'CR-2026-00' });
  });

  it('in German: "12,50" is stored as 12.5, and the edit form shows it back as 12,5', async () => {
    const page = await openProducts('de-DE');
    await page.getByRole('button', { name: 'New item' }).first().click();
    const form = page.getByRole('dialog', { name: 'New item in products' });
    await form.getByLabel(/^Title/).fill('Brezel');
    await form.getByLabel(/^Price/).fill('12,50');
    await form.getByRole('button', { name: 'Create item' }).click();
    await form.waitFor({ state: 'hidden' });
    await page.locator('tbody tr').filter({ hasText: 'Brezel' }).waitFor();
    expect((await products()).find((item) => item.data.title === 'Brezel')?.data.price).toBe(12.5);

    await page.getByRole('button', { name: 'Edit Brezel' }).click();
    const edit = page.getByRole('dialog', { name: /Edit item/ });
    expect(await edit.getByLabel(/^Price/).inputValue()).toBe('12,5');
    await screenshot(page, 'item-input-german-decimal-1440');
  });

  it('shows the server’s length refusal at the field when a stored value is longer than the field now allows', async () => {
    const item = await api.createItem(siteId, 'products', { title: 'Rye loaf', code: 'RYE-000001' });
    // The limit was lowered after the value was stored.
    await api.send('PATCH', '/collections/products/fields/code', { siteId, body: { options: { maxLength: 6 } } });
    const page = await openProducts('en-US');
    await page.getByRole('button', { name: 'Edit Rye loaf' }).click();
    const edit = page.getByRole('dialog', { name: /Edit item/ });
    const code = edit.getByLabel(/^Code/);
    expect(await code.getAttribute('maxlength')).toBe('6');
    await code.press('End');
    await code.press('Backspace');
    expect(await code.inputValue()).toBe('RYE-00000');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await page.locator('#item-field-code-error').waitFor();
    expect(await inputError(page, 'item-field-code')).toBe('Too long: at most 6 characters (this has 9)');
    expect(await code.getAttribute('aria-invalid')).toBe('true');
    await screenshot(page, 'item-input-length-refused-1440');
    expect(await page.getByText('Changes saved').count()).toBe(0);
    expect((await api.send<Product>('GET', `/items/products/${item.id}`, { siteId })).data.code).toBe('RYE-000001');
  });
});

describe('deleting an item', () => {
  it('says it goes to the Trash for 30 days; the Trash page lists it and restores it under its id', async () => {
    const tart = await api.createItem(siteId, 'products', { title: 'Lemon tart', price: 4.5 });
    await api.createItem(siteId, 'products', { title: 'Scone' });
    const page = await openProducts();
    await page.locator('tbody tr').filter({ hasText: 'Lemon tart' }).waitFor();
    await page.getByRole('button', { name: 'Delete Lemon tart' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete this item?' });
    await confirm.getByText('where it can be restored for 30 days').waitFor();
    expect(await confirm.textContent()).not.toContain('cannot be undone');
    await screenshot(page, 'item-delete-confirm-1440');
    await confirm.getByRole('button', { name: 'Delete item' }).click();
    await confirm.waitFor({ state: 'hidden' });
    await page.locator('tbody tr').filter({ hasText: 'Lemon tart' }).waitFor({ state: 'detached' });

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Trash' }).click();
    await page.waitForURL(/\/trash$/);
    const row = page.getByRole('row').filter({ hasText: 'Lemon tart' });
    await row.waitFor();
    expect(await row.textContent()).toContain('Item');
    expect(await row.textContent()).toContain('in products');
    await screenshot(page, 'item-in-trash-1440');

    await row.getByRole('button', { name: 'Restore Lemon tart' }).click();
    await page.getByText('Item restored').waitFor();
    await row.waitFor({ state: 'detached' });
    await screenshot(page, 'item-restored-1440');

    await page.goto(`${studio().baseUrl}/content/products`);
    await page.locator('tbody tr').filter({ hasText: 'Lemon tart' }).waitFor();
    const back = await api.send<Product>('GET', `/items/products/${tart.id}`, { siteId });
    expect(back.data).toEqual({ title: 'Lemon tart', price: 4.5 });
  });
});
