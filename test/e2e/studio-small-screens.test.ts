/// <reference lib="dom" />
// The Studio on a 390×844 phone and a 1280×800 desktop: no page scrolls sideways, the navigation is a drawer on the
// phone, an approval card's title and its Approve button are on screen together, and the Copilot's panel fills the phone.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../support/api-client.js';
import { horizontalOverflow as overflow, signIn, studioPerFile } from './support/studio.js';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
const PAGES = [
  '/',
  '/content',
  '/content/recipes',
  '/content/recipes?tab=fields',
  '/settings/ai-approvals',
  '/settings/ai-approvals?status=rejected',
  '/settings/ai-audit',
  '/settings/members',
  '/trash',
  '/admin/sites',
  '/admin/users',
];

let siteId: string;
let approvalId: string;

const { studio, browser, openAs } = studioPerFile('small-screens', async (started) => {
  const root = await ApiClient.signIn(started.baseUrl, started.admin.email, started.admin.password);
  siteId = await root.createSite('Phone Site');
  await root.createCollection(siteId, {
    name: 'recipes',
    fields: [
      { name: 'title', type: 'string', required: true },
      { name: 'body', type: 'text' },
      { name: 'is_public', type: 'boolean' },
      { name: 'published_at', type: 'datetime' },
      { name: 'rank', type: 'integer' },
      { name: 'meta', type: 'json' },
    ],
  });
  await root.createCollection(siteId, { name: 'drafts', fields: [{ name: 'title', type: 'string' }] });
  for (let index = 1; index <= 3; index += 1)
    await root.createItem(siteId, 'recipes', {
      title: `A rather long post title number ${index} that wraps`,
      body: 'Body text',
      is_public: true,
    });
  // A collection in the trash: the Trash page has a row to lay out.
  await root.createCollection(siteId, { name: 'old_notes', fields: [{ name: 'title', type: 'string' }] });
  await root.send('DELETE', '/collections/old_notes', { siteId });
  // Someone else asks for a deletion: the card the phone's approver decides.
  const other = await root.createMember(siteId, 'admin');
  const reply = await other.chat(siteId, 'delete collection drafts');
  expect(reply.status).toBe('pending_approval');
  approvalId = reply.approvalId;
});

async function settle(page: Page, path: string): Promise<void> {
  await page.goto(`${studio().baseUrl}${path}`);
  await page.locator('h1').first().waitFor();
  await page.waitForLoadState('networkidle');
}

/** The box lies inside the viewport (with a pixel of rounding). */
function insideViewport(box: { x: number; y: number; width: number; height: number } | null, viewport: { width: number; height: number }) {
  expect(box).not.toBeNull();
  if (!box) return;
  expect(box.x).toBeGreaterThanOrEqual(-1);
  expect(box.y).toBeGreaterThanOrEqual(-1);
  expect(box.x + box.width).toBeLessThanOrEqual(viewport.width + 1);
  expect(box.y + box.height).toBeLessThanOrEqual(viewport.height + 1);
}

describe('Studio on small and large screens', () => {
  for (const [name, viewport] of [
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ] as const) {
    it(`scrolls no page sideways at ${viewport.width}×${viewport.height} (${name})`, async () => {
      const signInPage = await browser(viewport);
      await signInPage.goto(`${studio().baseUrl}/sign-in`);
      await signInPage.getByRole('button', { name: 'Sign in' }).waitFor();
      expect(await overflow(signInPage), '/sign-in').toBe(0);

      const page = await openAs(viewport);
      for (const path of PAGES) {
        await settle(page, path);
        expect(await overflow(page), path).toBe(0);
      }
    });
  }

  it('navigates from a drawer on the phone and keeps the sidebar on the desktop', async () => {
    const phone = await openAs(PHONE);
    const main = phone.getByRole('navigation', { name: 'Main' });
    expect(await main.isVisible()).toBe(false);
    await phone.getByRole('button', { name: 'Menu' }).click();
    await main.getByRole('link', { name: /^Approvals/ }).click();
    await phone.waitForURL(/\/settings\/ai-approvals$/);
    await expect.poll(() => main.isVisible()).toBe(false);
    expect(await phone.getByRole('button', { name: 'Menu' }).getAttribute('aria-expanded')).toBe('false');

    const desktop = await openAs(DESKTOP);
    expect(await desktop.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(true);
    expect(await desktop.getByRole('button', { name: 'Menu' }).isVisible()).toBe(false);
  });

  it('shows an approval card’s title and Approve together on a phone, and the Copilot panel fully on screen', async () => {
    const page = await openAs(PHONE);
    await settle(page, '/settings/ai-approvals');
    const card = page.locator('article[data-approval-id]').first();
    const title = card.getByRole('heading', { level: 3 });
    await title.scrollIntoViewIfNeeded();
    const approve = card.getByRole('button', { name: 'Approve' });
    insideViewport(await title.boundingBox(), PHONE);
    insideViewport(await approve.boundingBox(), PHONE);
    expect(await overflow(page)).toBe(0);
    await page.waitForTimeout(300);
    await page.screenshot({ path: '/tmp/studio-approvals-phone.png' });

    await page.getByRole('button', { name: 'Copilot' }).click();
    const panel = page.locator('#copilot-panel');
    await panel.waitFor();
    await page.waitForTimeout(300);
    // A full-height sheet on the phone (its own Close; the round button hides meanwhile).
    const box = await panel.boundingBox();
    insideViewport(box, PHONE);
    expect(box).toEqual({ x: 0, y: 0, width: PHONE.width, height: PHONE.height });

    // The intro's chips and the completions name this site's collections, never a stock "posts".
    const chipTexts = () => panel.locator('.suggestions .chip').allTextContents();
    await expect.poll(async () => (await chipTexts())[1]).toMatch(/^list items in (recipes|drafts)$/);
    const chips = await chipTexts();
    expect(chips[0]).toBe('list collections');
    expect(chips.join(' ')).not.toContain('posts');
    await panel.getByLabel('Message the Copilot').fill('list it');
    const completions = panel.getByRole('group', { name: 'Complete the command' });
    expect((await completions.getByRole('button').allTextContents()).sort()).toEqual(['list items in drafts', 'list items in recipes']);
    await completions.getByRole('button', { name: 'list items in recipes' }).click();
    expect(await panel.getByLabel('Message the Copilot').inputValue()).toBe('list items in recipes');
    await panel.getByLabel('Message the Copilot').fill('');
    await page.screenshot({ path: '/tmp/studio-copilot-phone.png' });

    const desktop = await openAs(DESKTOP);
    await settle(desktop, '/settings/ai-approvals');
    await desktop.locator('article[data-approval-id]').first().waitFor();
    await desktop.waitForTimeout(300);
    await desktop.screenshot({ path: '/tmp/studio-approvals-desktop.png' });
    await desktop.getByRole('button', { name: 'Copilot' }).click();
    await desktop.locator('#copilot-panel').waitFor();
    await desktop.waitForTimeout(300);
    insideViewport(await desktop.locator('#copilot-panel').boundingBox(), DESKTOP);
    await desktop.screenshot({ path: '/tmp/studio-copilot-desktop.png' });
  });

  it('moves focus to what needs it: the error after a failed sign-in, the card a link points to', async () => {
    const page = await browser(PHONE);
    await page.goto(`${studio().baseUrl}/sign-in`);
    await page.getByLabel('Email').fill(studio().admin.email);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('alert');

    await signIn(page, studio().baseUrl, studio().admin);
    await page.goto(`${studio().baseUrl}/settings/ai-approvals#approval-${approvalId}`);
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-approval-id'))).toBe(approvalId);
  });
});
