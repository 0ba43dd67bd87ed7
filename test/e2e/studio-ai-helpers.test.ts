/// <reference lib="dom" />
// The Studio's AI helpers in Chromium against the real all-in-one server (local embedder, echo planner): the navigation's
// semantic search finds an item created in the test and opens it; "Suggest a field" pre-fills the add-field form and
// saving creates the field; "Assist" fills a text field and the value is stored only when the admin saves.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../support/api-client.js';
import { screenshot, studioPerFile } from './support/studio.js';

let api: ApiClient;
let siteId: string;

const { studio, openAs } = studioPerFile('ai-helpers', async (started) => {
  api = await ApiClient.signIn(started.baseUrl, started.admin.email, started.admin.password);
  siteId = await api.createSite('Garden Journal');
  await api.createCollection(siteId, {
    name: 'articles',
    label: 'Articles',
    fields: [
      { name: 'title', type: 'string', required: true },
      { name: 'body', type: 'text' },
      { name: 'summary', type: 'text' },
    ],
  });
  const topics = [
    ['Pruning roses in late winter', 'Cut rose canes just above an outward facing bud while the plant is dormant.'],
    ['Sowing tomatoes indoors', 'Start tomato seeds on a warm windowsill six weeks before the last frost.'],
    ['Watering a lawn in a drought', 'Water the grass deeply and rarely, early in the morning, to grow deep roots.'],
  ];
  for (const [title, body] of topics) await api.createItem(siteId, 'articles', { title, body });
});

const SEARCH_TIMEOUT_MS = 60_000;
const viewport = { width: 1280, height: 860 };

/**
 * Waits until the input `selector` holds a value (what the AI helper filled in); the helper's alert, if it shows one
 * instead, fails the test with its words.
 */
async function waitForFilled(page: Page, selector: string): Promise<void> {
  const handle = await page.waitForFunction(
    (inputSelector) => {
      const input = document.querySelector<HTMLInputElement | HTMLTextAreaElement>(inputSelector);
      if (input && input.value !== '') return 'filled';
      return document.querySelector('dialog [role="alert"]')?.textContent?.trim() || false;
    },
    selector,
    { timeout: 30_000 },
  );
  const result = await handle.jsonValue();
  if (result !== 'filled') throw new Error(`the AI helper answered: ${result}`);
}

/** The search results listed under the box. */
const results = (page: Page) => page.getByRole('listbox', { name: 'Matching items' }).getByRole('option');

/** The search panel's live status line: "Searching…", "N matches", "No matches" or an error. */
const searchState = (page: Page) => page.getByRole('region', { name: 'Search results' }).getByRole('status').first();

/**
 * Types the query into the navigation's search box until a result whose snippet contains `expected` is listed:
 * items are embedded in the background, so the first searches may run before the item is indexed.
 */
async function searchUntilFound(page: Page, query: string, expected: RegExp): Promise<void> {
  const box = page.getByRole('combobox', { name: 'Search content' });
  const deadline = Date.now() + SEARCH_TIMEOUT_MS;
  for (;;) {
    await box.fill(query);
    await box.press('Enter');
    await searchState(page).filter({ hasNotText: 'Searching…' }).waitFor();
    const state = (await searchState(page).textContent())?.trim() ?? '';
    if (!/match/.test(state)) throw new Error(`search for "${query}" failed: ${state}`);
    if ((await results(page).filter({ hasText: expected }).count()) > 0) return;
    if (Date.now() > deadline) throw new Error(`search for "${query}" never listed ${expected}`);
    await page.waitForTimeout(1000);
  }
}

describe('Studio AI helpers', () => {
  it('finds an item created in the test with the navigation search and opens it in its editor', async () => {
    const created = await api.createItem(siteId, 'articles', {
      title: 'Composting coffee grounds',
      body: 'Used coffee grounds add nitrogen to a compost heap; mix them with dry leaves and turn the pile weekly.',
    });
    const page = await openAs(viewport);
    await searchUntilFound(page, 'coffee grounds compost heap', /coffee grounds/i);

    const first = results(page).first();
    expect(await first.textContent()).toMatch(/Articles|articles/);
    // Closeness in words, never a percentage.
    expect(await first.textContent()).not.toMatch(/\d+%/);
    await screenshot(page, 'search-results');

    // Keyboard: the first result is the item (best first), ArrowDown chooses it and Enter opens it.
    expect(await first.textContent()).toMatch(/coffee grounds/i);
    await page.getByRole('combobox', { name: 'Search content' }).press('ArrowDown');
    await page.getByRole('combobox', { name: 'Search content' }).press('Enter');
    await page.waitForURL(new RegExp(`/content/articles\\?item=${created.id}$`));
    const editor = page.getByRole('dialog', { name: /Edit item/ });
    expect(await editor.getByLabel(/^Title/).inputValue()).toBe('Composting coffee grounds');

    // Closing the editor leaves the collection page without the item in the URL.
    await editor.getByRole('button', { name: 'Cancel' }).click();
    await editor.waitFor({ state: 'hidden' });
    await page.waitForURL(/\/content\/articles$/);

    // Escape closes the results, then empties the box.
    const box = page.getByRole('combobox', { name: 'Search content' });
    await box.fill('roses');
    await box.press('Enter');
    await searchState(page).filter({ hasText: /match/ }).waitFor();
    await box.press('Escape');
    expect(await box.getAttribute('aria-expanded')).toBe('false');
    await box.press('Escape');
    expect(await box.inputValue()).toBe('');
  });

  it('suggests a field from a description, pre-fills the add-field form, and saving creates it', async () => {
    const page = await openAs(viewport);
    await page.goto(`${studio().baseUrl}/content/articles?tab=fields`);
    await page.locator('tr[data-field="title"]').waitFor();
    await page.getByRole('button', { name: 'Suggest a field' }).click();
    const dialog = page.getByRole('dialog', { name: /Add a field/ });
    await dialog.getByLabel('Describe the field').fill('the date and time when the article was published');
    await dialog.getByRole('button', { name: 'Suggest' }).click();

    const name = dialog.getByLabel(/^Name/);
    await waitForFilled(page, '#field-name');
    const suggested = await name.inputValue();
    expect(suggested).toMatch(/^[a-z][a-z0-9_]{0,63}$/);
    expect(['title', 'body', 'summary']).not.toContain(suggested);
    const type = await dialog.getByLabel('Type').inputValue();
    expect(await dialog.getByText(/^Suggested /).isVisible()).toBe(true);
    await screenshot(page, 'suggest-a-field');

    // Nothing exists before the admin saves.
    const before = await api.send<{ fields: Array<{ name: string }> }>('GET', '/collections/articles', { siteId });
    expect(before.fields.map((field) => field.name)).not.toContain(suggested);

    await dialog.getByRole('button', { name: 'Add field' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.locator(`tr[data-field="${suggested}"]`).waitFor();
    const after = await api.send<{ fields: Array<{ name: string; type: string }> }>('GET', '/collections/articles', { siteId });
    expect(after.fields.find((field) => field.name === suggested)).toMatchObject({ type });
  });

  it('assists with a text field: the value fills the input and is stored only when the admin saves', async () => {
    const created = await api.createItem(siteId, 'articles', {
      title: 'Mulching fruit trees',
      body: 'Spread a thick layer of mulch around fruit trees in spring to keep moisture in and weeds down.',
    });
    const page = await openAs(viewport);
    await page.goto(`${studio().baseUrl}/content/articles?item=${created.id}`);
    const editor = page.getByRole('dialog', { name: /Edit item/ });
    await editor.getByRole('button', { name: 'Assist with Summary' }).click();
    await editor.getByLabel('Instruction for Summary').fill('a one-sentence summary of the body');
    await editor.getByRole('button', { name: 'Write' }).click();
    await waitForFilled(page, '#item-field-summary');
    const value = await editor.getByLabel(/^Summary/).inputValue();
    expect(value.trim()).not.toBe('');
    expect(await editor.getByText(/Not saved until you save/).isVisible()).toBe(true);
    await screenshot(page, 'assist-summary');

    // Not stored yet.
    const unsaved = await api.send<{ data: Record<string, unknown> }>('GET', `/items/articles/${created.id}`, { siteId });
    expect(unsaved.data.summary).toBeUndefined();

    await editor.getByRole('button', { name: 'Save changes' }).click();
    await editor.waitFor({ state: 'hidden' });
    const saved = await api.send<{ data: Record<string, unknown> }>('GET', `/items/articles/${created.id}`, { siteId });
    expect(saved.data.summary).toBe(value);
  });
});
