/// <reference lib="dom" />
// The items table in Chromium: row actions in view at 1280 and 1024 px, columns headed in words and chosen per
// collection (remembered), sort, filter, page size and page in the URL (reload and Back keep them), the Copilot's button
// clear of the pager, and the item sheet asking before it discards unsaved edits.
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../support/api-client.js';
import { horizontalOverflow, studioPerFile } from './support/studio.js';

const { studio, openAs } = studioPerFile('items-table', async (started) => {
  const root = await ApiClient.signIn(started.baseUrl, started.admin.email, started.admin.password);
  const siteId = await root.createSite('Table Site');
  await root.createCollection(siteId, {
    name: 'posts',
    fields: [
      { name: 'title', type: 'string', required: true },
      { name: 'body', type: 'text' },
      { name: 'is_public', type: 'boolean' },
      { name: 'rank', type: 'integer' },
      { name: 'published_at', type: 'datetime' },
      { name: 'meta', type: 'json' },
      { name: 'summary_for_search_engines', type: 'text', required: true },
    ],
  });
  for (let index = 1; index <= 30; index += 1) {
    const number = String(index).padStart(2, '0');
    await root.createItem(siteId, 'posts', {
      title: `Post ${number}`,
      body: `A long body for post ${number} `.repeat(6),
      is_public: index % 2 === 0,
      rank: (index * 7) % 31,
      meta: { tags: ['news', `tag-${number}`] },
      summary_for_search_engines: `Summary of post ${number} `.repeat(4),
    });
  }
});

async function openPosts(page: Page, query = ''): Promise<void> {
  await page.goto(`${studio().baseUrl}/content/posts${query}`);
  await page.locator('tbody tr').first().waitFor();
}

const headings = (page: Page) => page.locator('thead th').allInnerTexts();
const firstCells = (page: Page) => page.locator('tbody tr td:first-child').allInnerTexts();

/** The element's box lies inside the viewport horizontally and inside its scrolling table. */
async function expectInView(locator: Locator, page: Page): Promise<void> {
  const box = await locator.boundingBox();
  const wrap = await page.locator('.table-wrap').boundingBox();
  const width = page.viewportSize()?.width ?? 0;
  expect(box && wrap).toBeTruthy();
  if (!box || !wrap) return;
  expect(box.x).toBeGreaterThanOrEqual(wrap.x - 1);
  expect(box.x + box.width).toBeLessThanOrEqual(Math.min(width, wrap.x + wrap.width) + 1);
}

describe('Studio items table', () => {
  for (const width of [1280, 1024]) {
    it(`keeps every row's actions in view at ${width} px, with columns headed in words`, async () => {
      const page = await openAs({ width, height: 800 });
      await openPosts(page);
      expect(await headings(page)).toEqual(
        expect.arrayContaining(['TITLE', 'BODY', 'IS PUBLIC', 'RANK', 'PUBLISHED AT', 'SUMMARY FOR SEARCH ENGINES']),
      );
      const [first, , , , last] = await firstCells(page);
      for (const name of [`Edit ${first}`, `Delete ${first}`, `Edit ${last}`])
        await expectInView(page.getByRole('button', { name, exact: true }), page);
      expect(await horizontalOverflow(page)).toBe(0);
      if (width === 1280) {
        await page.waitForTimeout(300);
        await page.screenshot({ path: '/tmp/studio-items-desktop.png' });
      }
    });
  }

  it('remembers the chosen columns per collection, and keeps sort, filter, page size and page in the URL', async () => {
    const page = await openAs({ width: 1280, height: 800 });
    await openPosts(page);

    // Columns: Body off, Meta on; a reload keeps the choice.
    await page.getByRole('button', { name: 'Columns' }).click();
    await page.getByRole('checkbox', { name: 'Body' }).uncheck();
    await page.getByRole('checkbox', { name: 'Meta' }).check();
    await page.keyboard.press('Escape');
    await expect.poll(() => headings(page)).not.toContain('BODY');
    expect(await headings(page)).toContain('META');
    await page.reload();
    await page.locator('tbody tr').first().waitFor();
    expect(await headings(page)).not.toContain('BODY');
    expect(await headings(page)).toContain('META');

    // Sort by rank: ascending, then descending, each in the URL.
    await page.getByRole('button', { name: 'Rank' }).click();
    await page.waitForURL(/[?&]sort=rank(&|$)/);
    expect((await page.locator('th[aria-sort="ascending"]').textContent())?.trim()).toBe('Rank');
    await expect.poll(async () => (await firstCells(page))[0]).toBe('Post 09');
    await page.getByRole('button', { name: 'Rank' }).click();
    await page.waitForURL(/[?&]sort=-rank(&|$)/);
    await expect.poll(async () => (await firstCells(page))[0]).toBe('Post 22');

    // Filter: the rows that match, the text in the URL; a reload keeps both.
    await page.getByRole('searchbox', { name: 'Filter items' }).fill('TAG-07');
    await page.waitForURL(/[?&]q=TAG-07(&|$)/);
    await page.getByText('1–1 of 1').waitFor();
    await page.reload();
    await page.getByText('1–1 of 1').waitFor();
    expect(new URL(page.url()).searchParams.get('sort')).toBe('-rank');
    expect(await page.getByRole('searchbox', { name: 'Filter items' }).inputValue()).toBe('TAG-07');
    expect(await firstCells(page)).toEqual(['Post 07']);

    // Page and page size, without sort or filter: in the URL, kept by reload, undone by Back.
    await openPosts(page);
    await page.getByText('1–25 of 30').waitFor();
    // Scrolled to the end, the Copilot's button (fixed, bottom right) does not cover the pager.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    const next = await page.getByRole('button', { name: 'Next' }).boundingBox();
    const copilot = await page.getByRole('button', { name: 'Copilot' }).boundingBox();
    expect(next && copilot).toBeTruthy();
    if (next && copilot) expect(next.y + next.height <= copilot.y || next.x + next.width <= copilot.x).toBe(true);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.waitForURL(/[?&]page=2(&|$)/);
    await page.getByText('26–30 of 30').waitFor();
    await page.reload();
    await page.getByText('26–30 of 30').waitFor();
    await page.goBack();
    await page.getByText('1–25 of 30').waitFor();
    expect(new URL(page.url()).search).toBe('');
    await page.getByLabel('Per page').selectOption('10');
    await page.waitForURL(/[?&]size=10(&|$)/);
    await page.getByText('1–10 of 30').waitFor();
  });

  it('asks before discarding unsaved edits, and focuses the first error after a failed save', async () => {
    const page = await openAs({ width: 1280, height: 800 });
    await openPosts(page);
    const [first = '', second = ''] = await firstCells(page);
    await page.getByRole('button', { name: `Edit ${first}`, exact: true }).click();
    const sheet = page.getByRole('dialog', { name: /Edit item/ });
    await sheet.getByLabel(/^Title/).fill('Post 01 rewritten');

    // Closing asks; Cancel keeps the edit.
    await sheet.getByRole('button', { name: 'Close' }).click();
    const prompt = page.getByRole('dialog', { name: 'Discard unsaved changes?' });
    await prompt.waitFor();
    await prompt.getByRole('button', { name: 'Cancel' }).click();
    await prompt.waitFor({ state: 'hidden' });
    expect(await sheet.getByLabel(/^Title/).inputValue()).toBe('Post 01 rewritten');

    // A failed save: the first input in error is focused.
    await sheet.getByLabel(/^Title/).fill('');
    await sheet.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('item-field-title');

    // Escape asks too; discarding closes the sheet and leaves the item as it was.
    await page.keyboard.press('Escape');
    await prompt.waitFor();
    await prompt.getByRole('button', { name: 'Discard changes' }).click();
    await sheet.waitFor({ state: 'hidden' });
    expect(await firstCells(page)).toContain(first);
    expect(await page.locator('tbody tr').filter({ hasText: 'Post 01 rewritten' }).count()).toBe(0);

    // An untouched sheet closes at once.
    await page.getByRole('button', { name: `Edit ${second}`, exact: true }).click();
    await sheet.getByRole('button', { name: 'Close' }).click();
    await sheet.waitFor({ state: 'hidden' });
    expect(await prompt.isVisible()).toBe(false);
  });

  it('fits a phone: the table scrolls inside its card with the actions in view', async () => {
    const page = await openAs({ width: 390, height: 844 });
    await openPosts(page);
    const [first] = await firstCells(page);
    await expectInView(page.getByRole('button', { name: `Edit ${first}`, exact: true }), page);
    expect(await horizontalOverflow(page)).toBe(0);
    await page.waitForTimeout(300);
    await page.screenshot({ path: '/tmp/studio-items-phone.png' });
  });
});
