/// <reference lib="dom" />
// The Studio's layout where an outside review found it failing (issue 32, points 1, 4, 10 and 12), in Chromium at the
// sizes it was found: a long item form's History tab clicked with the mouse (1440×900 and 390×844); the requester's own
// card on a phone (title column at least 200 px, badges on their own line, Withdraw on screen); no request toast on the
// Approvals page, several collapsed into one elsewhere, the pending count on the menu button; the Copilot as a
// full-height sheet on the phone, opened with its shortcut and out of the way after Review; the skip link and the focus
// after a decision; the items table's Updated column (or a scroll hint) and formatted numbers at 1440; the sidebar's
// last link at 1024×768, and every drawer link reachable with no sideways overflow at 200% zoom.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../support/api-client.js';
import { screenshot, studioPerFile } from './support/studio.js';

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
/** 200% zoom halves the CSS viewport: 1440×900 and 1024×768 lay out as 720×450 and 512×384. */
const ZOOMED = [
  { width: 720, height: 450 },
  { width: 512, height: 384 },
];

let root: ApiClient;
let other: ApiClient;
let siteId: string;

const { studio, openAs } = studioPerFile('layout', async (started) => {
  root = await ApiClient.signIn(started.baseUrl, started.admin.email, started.admin.password);
  siteId = await root.createSite('Shop');
  // Two long forms: 8 fields and 6 fields, each taller than the sheet.
  await root.createCollection(siteId, {
    name: 'products',
    fields: [
      { name: 'title', type: 'string', required: true },
      { name: 'description', type: 'text' },
      { name: 'price', type: 'number' },
      { name: 'stock', type: 'integer' },
      { name: 'is_public', type: 'boolean' },
      { name: 'published_at', type: 'datetime' },
      { name: 'summary_for_search_engines', type: 'text' },
      { name: 'meta', type: 'json' },
    ],
  });
  await root.createCollection(siteId, {
    name: 'articles',
    fields: [
      { name: 'title', type: 'string', required: true },
      { name: 'body', type: 'text' },
      { name: 'standfirst', type: 'text' },
      { name: 'notes', type: 'text' },
      { name: 'summary', type: 'text' },
      { name: 'meta', type: 'json' },
    ],
  });
  // Six products, as in the review's picture of the items table (docs/screenshots/32-layout/p12-items-table-*).
  for (let index = 1; index <= 6; index += 1)
    await root.createItem(siteId, 'products', {
      title: `Espresso machine model ${index}`,
      description: 'A long description of the machine. '.repeat(6),
      price: 0.1 + 349.55,
      stock: index * 3,
      is_public: true,
      summary_for_search_engines: 'Summary text '.repeat(10),
      meta: { tags: ['coffee', 'kitchen'], origin: { country: 'Italy' } },
    });
  for (let index = 1; index <= 3; index += 1)
    await root.createItem(siteId, 'articles', {
      title: `Article ${index}`,
      body: 'Body text. '.repeat(30),
      standfirst: 'Standfirst. '.repeat(10),
      notes: 'Notes. '.repeat(10),
      summary: 'Summary. '.repeat(10),
      meta: { tags: ['news'], source: { name: 'wire' } },
    });
  for (let index = 1; index <= 10; index += 1)
    await root.createCollection(siteId, { name: `scratch_${index}`, fields: [{ name: 'title', type: 'string' }] });
  other = await root.createMember(siteId, 'admin');
});

const toasts = (page: Page) => page.getByRole('region', { name: 'Notifications' }).getByRole('status');

async function openApprovals(page: Page): Promise<void> {
  await page.goto(`${studio().baseUrl}/settings/ai-approvals`);
  await page.locator('h1').first().waitFor();
  await page.waitForLoadState('networkidle');
}

/** Another admin asks for a deletion; answers the approval's id. */
async function requestDeletion(client: ApiClient, collection: string): Promise<string> {
  const reply = await client.chat(siteId, `delete collection ${collection}`);
  expect(reply.status).toBe('pending_approval');
  return reply.approvalId;
}

describe('Studio layout', () => {
  for (const viewport of [DESKTOP, PHONE]) {
    it(`reaches an item's History tab with the mouse on 8- and 6-field forms at ${viewport.width}×${viewport.height}`, async () => {
      const page = await openAs(viewport);
      for (const collection of ['products', 'articles']) {
        await page.goto(`${studio().baseUrl}/content/${collection}`);
        await page.locator('tbody tr').first().waitFor();
        await page.locator('tbody tr td.primary button').first().click();
        const sheet = page.getByRole('dialog');
        const history = sheet.getByRole('tab', { name: 'History' });
        await history.waitFor();
        // The form is taller than the sheet (the case that squeezed the tab bar to nothing).
        expect(await sheet.locator('.body').evaluate((body) => body.scrollHeight > body.clientHeight), collection).toBe(true);
        const bar = await sheet.getByRole('tablist', { name: 'Item sections' }).boundingBox();
        expect(bar?.height, collection).toBeGreaterThanOrEqual(32);
        await history.click();
        expect(await history.getAttribute('aria-selected')).toBe('true');
        await sheet.locator('#item-panel-history').waitFor();
        expect(await sheet.getByText('Every change of this item, newest first.').isVisible()).toBe(true);
      }
    });
  }

  it("keeps the requester's own card readable on a phone: title column ≥ 200 px, badges below, words whole, Withdraw on screen", async () => {
    const approvalId = await requestDeletion(root, 'scratch_1');
    const page = await openAs(PHONE);
    await openApprovals(page);
    const card = page.locator(`article[data-approval-id="${approvalId}"]`);
    await card.waitFor();
    const title = card.locator('.titles');
    const titleBox = await title.boundingBox();
    expect(titleBox?.width).toBeGreaterThanOrEqual(200);
    // The badges sit on their own line under the title.
    const badge = await card.getByText('You asked').boundingBox();
    expect(badge && titleBox && badge.y >= titleBox.y + titleBox.height - 1).toBe(true);
    // No word of the title breaks across lines (each word's text lies on one line).
    const brokenWords = await card.getByRole('heading', { level: 3 }).evaluate((heading) => {
      const broken: string[] = [];
      const walker = document.createTreeWalker(heading, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? '';
        for (const match of text.matchAll(/\S+/g)) {
          const range = document.createRange();
          range.setStart(node, match.index);
          range.setEnd(node, match.index + match[0].length);
          const lines = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
          if (lines.size > 1) broken.push(match[0]);
        }
      }
      return broken;
    });
    expect(brokenWords).toEqual([]);
    const withdraw = card.getByRole('button', { name: 'Withdraw' });
    await withdraw.scrollIntoViewIfNeeded();
    const box = await withdraw.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= PHONE.width && box.y >= 0 && box.y + box.height <= PHONE.height).toBe(true);
  });

  it('raises no request toast on the Approvals page, collapses several into one elsewhere, and counts them on the menu button', async () => {
    const page = await openAs(PHONE);
    await openApprovals(page);
    const ids = [
      await requestDeletion(other, 'scratch_2'),
      await requestDeletion(other, 'scratch_3'),
      await requestDeletion(other, 'scratch_4'),
    ];
    // The cards arrive live; the event that brought them raised no toast.
    for (const id of ids) await page.locator(`article[data-approval-id="${id}"]`).waitFor();
    expect(await toasts(page).count()).toBe(0);
    // Every pending request is a card here (the list has loaded: the live ones arrive after it).
    const pending = await page.locator('article[data-approval-id]').count();
    expect(pending).toBeGreaterThanOrEqual(3);
    const menu = page.getByRole('button', { name: /^Menu/ });
    expect(await menu.getAttribute('aria-label')).toBe(`Menu, ${pending} pending approvals`);
    expect((await menu.locator('[data-pending-count]').textContent())?.trim()).toBe(String(pending));

    // Elsewhere (the drawer's link to Collections, no reload): one request, one toast; two more, still one toast.
    await menu.click();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Collections' }).click();
    await page.waitForURL(/\/content$/);
    const first = await requestDeletion(other, 'scratch_5');
    await expect.poll(() => toasts(page).count()).toBe(1);
    expect(
      await toasts(page)
        .getByRole('link', { name: /Review request/ })
        .getAttribute('href'),
    ).toBe(`/settings/ai-approvals#approval-${first}`);
    await requestDeletion(other, 'scratch_6');
    await requestDeletion(other, 'scratch_7');
    await expect.poll(() => toasts(page).first().textContent()).toContain('3 requests wait for a decision');
    expect(await toasts(page).count()).toBe(1);
    expect(
      await toasts(page)
        .getByRole('link', { name: /Review requests/ })
        .getAttribute('href'),
    ).toBe('/settings/ai-approvals');
    await expect.poll(() => menu.getAttribute('aria-label')).toBe(`Menu, ${pending + 3} pending approvals`);
    expect((await menu.locator('[data-pending-count]').textContent())?.trim()).toBe(String(pending + 3));

    // Opening the Approvals page takes the toast down.
    await menu.click();
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: /^Approvals/ })
      .click();
    await page.waitForURL(/\/settings\/ai-approvals$/);
    await expect.poll(() => toasts(page).count()).toBe(0);
  });

  it('opens the Copilot with Ctrl+. as a full-height sheet on a phone, which gets out of the way when Review is followed', async () => {
    const page = await openAs(PHONE);
    const button = page.getByRole('button', { name: 'Copilot', exact: true });
    expect(await button.getAttribute('aria-keyshortcuts')).toBe('Control+.');
    expect(await button.getAttribute('title')).toContain('Ctrl+.');
    await page.keyboard.press('Control+.');
    const panel = page.locator('#copilot-panel');
    await panel.waitFor();
    expect(await panel.boundingBox()).toEqual({ x: 0, y: 0, width: PHONE.width, height: PHONE.height });
    // The composer is not covered by the round button (hidden while the sheet is open).
    expect(await button.isVisible()).toBe(false);
    await panel.getByLabel('Message the Copilot').fill('delete collection scratch_8');
    await page.keyboard.press('Enter');
    const review = panel.getByRole('link', { name: 'Review' });
    await review.waitFor();
    const href = await review.getAttribute('href');
    const approvalId = href?.split('#approval-')[1];
    await review.click();
    await page.waitForURL(/\/settings\/ai-approvals#approval-/);
    await panel.waitFor({ state: 'detached' });
    // The card Review pointed at has the focus, in view below the top bar.
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-approval-id'))).toBe(approvalId);
    const card = await page.locator(`article[data-approval-id="${approvalId}"]`).boundingBox();
    const bar = await page.locator('header.topbar').boundingBox();
    expect(card && bar && card.y >= bar.y + bar.height - 1 && card.y < PHONE.height).toBe(true);
    // The shortcut opens it again, and closes it.
    await page.keyboard.press('Control+.');
    await panel.waitFor();
    await page.keyboard.press('Control+.');
    await panel.waitFor({ state: 'detached' });
  });

  it('offers a skip link on the first Tab, and moves the focus to the next card after a decision', async () => {
    const [firstId, secondId] = [await requestDeletion(other, 'scratch_9'), await requestDeletion(other, 'scratch_10')];
    const page = await openAs(DESKTOP);
    await openApprovals(page);
    await page.locator(`article[data-approval-id="${secondId}"]`).waitFor();

    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to main content' });
    expect(await skip.evaluate((link) => link === document.activeElement)).toBe(true);
    const box = await skip.boundingBox();
    expect(box && box.y >= 0 && box.x >= 0).toBe(true);
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => Boolean(document.activeElement?.closest('main')))).toBe(true);

    // The cards in page order; reject one from the keyboard: the focus goes to the card after it.
    const order = await page
      .locator('article[data-approval-id]')
      .evaluateAll((cards) => cards.map((card) => card.getAttribute('data-approval-id')));
    const decided = order.indexOf(firstId) < order.indexOf(secondId) ? firstId : secondId;
    const next = order[order.indexOf(decided) + 1];
    expect(next).toBeDefined();
    const card = page.locator(`article[data-approval-id="${decided}"]`);
    await card.getByRole('button', { name: 'Reject' }).focus();
    await page.keyboard.press('Enter');
    await card.waitFor({ state: 'detached' });
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-approval-id'))).toBe(next);
  });

  it('shows the items table’s Updated column at 1440 with no sideways scroll (ids shortened, full id as tooltip), with numbers formatted', async () => {
    const page = await openAs(DESKTOP);
    await page.goto(`${studio().baseUrl}/content/products`);
    await page.locator('tbody tr').first().waitFor();
    const wrap = await page.locator('.table-wrap').boundingBox();
    const updated = await page.getByRole('columnheader', { name: 'Updated' }).boundingBox();
    const fits = Boolean(wrap && updated && updated.x + updated.width <= wrap.x + wrap.width + 1);
    const hint = page.locator('[data-scroll-hint]');
    if (!fits) expect(await hint.isVisible()).toBe(true);
    // A table that is wider than its frame always says so.
    const overflowing = await page.locator('.table-wrap').evaluate((element) => element.scrollWidth > element.clientWidth + 1);
    expect(await hint.count()).toBe(overflowing ? 1 : 0);
    // With the default columns it is not wider at 1440: no sideways scroll (the ID column is short, the full id its tooltip).
    expect(await page.locator('.table-wrap').evaluate((element) => element.scrollWidth - element.clientWidth)).toBeLessThanOrEqual(1);
    expect(fits).toBe(true);
    const idCell = page.locator('tbody tr:first-child td[data-item-id-cell]');
    const fullId = await page.locator('tbody tr').first().getAttribute('data-item-id');
    expect(await idCell.getAttribute('title')).toBe(fullId);
    expect(fullId?.endsWith(((await idCell.textContent()) ?? '').trim().replace('…', ''))).toBe(true);
    // The short id is seen whole: not cut inside its cell, not under the sticky actions column.
    expect(await idCell.evaluate((cell) => cell.scrollWidth - cell.clientWidth)).toBeLessThanOrEqual(0);
    const idBox = await idCell.boundingBox();
    const actionsBox = await page.locator('tbody tr:first-child td.actions').boundingBox();
    expect(idBox && actionsBox && idBox.x + idBox.width <= actionsBox.x + 1).toBe(true);
    // In the browser's locale ("349.65" in en-US), never 349.65000000000003.
    const price = await page.evaluate(() => new Intl.NumberFormat(undefined, { maximumFractionDigits: 6 }).format(349.65));
    expect(price).not.toContain('0000');
    const priceColumn = (await page.locator('thead th').allInnerTexts()).indexOf('PRICE');
    expect(priceColumn).toBeGreaterThan(-1);
    expect((await page.locator(`tbody tr:first-child td:nth-child(${priceColumn + 1})`).textContent())?.trim()).toBe(price);
    // The closing note's after picture (docs/screenshots/32-layout/p12-items-table-1440x900-after.png).
    await screenshot(page, 'p12-items-table-1440x900-after');
  });

  it('shows the sidebar’s last link at 1024×768, and every drawer link at 200% zoom with no sideways overflow', async () => {
    const page = await openAs({ width: 1024, height: 768 });
    const nav = page.getByRole('navigation', { name: 'Main' });
    const users = await nav.getByRole('link', { name: 'Users' }).boundingBox();
    const navBox = await nav.boundingBox();
    expect(users && navBox && users.y + users.height <= navBox.y + navBox.height + 1 && users.y + users.height <= 768).toBe(true);

    // The same page, zoomed (one sign-in: a browser per size is slow on a loaded machine).
    const zoomed = page;
    for (const viewport of ZOOMED) {
      await zoomed.setViewportSize(viewport);
      await zoomed.getByRole('button', { name: /^Menu/ }).click();
      const drawer = zoomed.locator('#studio-navigation');
      await expect.poll(() => drawer.evaluate((element) => getComputedStyle(element).visibility)).toBe('visible');
      expect(await drawer.evaluate((element) => element.scrollWidth - element.clientWidth)).toBe(0);
      const links = zoomed.getByRole('navigation', { name: 'Main' }).getByRole('link');
      const count = await links.count();
      expect(count).toBe(9);
      for (let index = 0; index < count; index += 1) {
        const link = links.nth(index);
        await link.scrollIntoViewIfNeeded();
        const box = await link.boundingBox();
        const shown = await drawer.boundingBox();
        expect(
          box &&
            shown &&
            box.height >= 30 &&
            box.y >= shown.y - 1 &&
            box.y + box.height <= Math.min(shown.y + shown.height, viewport.height) + 1,
        ).toBe(true);
        expect(box && box.x + box.width <= (shown?.x ?? 0) + (shown?.width ?? 0) + 1).toBe(true);
      }
      await zoomed.keyboard.press('Escape');
      await expect.poll(() => drawer.evaluate((element) => getComputedStyle(element).visibility)).toBe('hidden');
    }
  });
});
