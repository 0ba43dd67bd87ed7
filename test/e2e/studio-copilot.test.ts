/// <reference lib="dom" />
// The Copilot and the Approvals dashboard in Chromium, live across browsers: admin A asks the Copilot for a deletion,
// admin B of the same site sees the badge and the card without a reload (no toast on the Approvals page) and approves it; A's reply turns
// approved and the collection leaves A's list; a second request rejected by B turns rejected in A's panel; an admin
// of another site sees none of it. Also measures the Copilot's boxes and the time from B's click to A's badge.
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import type { Page } from 'playwright-core';
import { stopAll } from '../support/processes.js';
import { ApiClient } from '../support/api-client.js';
import { ensureStudioBuild, openBrowser, type RunningStudio, screenshot, screenshotOf, signIn, startStudio } from './support/studio.js';

let studio: RunningStudio;
const closers: (() => Promise<void>)[] = [];

const ann = { email: 'ann@copilot.test', password: 'ann-password-1', name: 'Ann Admin' };
const bea = { email: 'bea@copilot.test', password: 'bea-password-1', name: 'Bea Admin' };
const cid = { email: 'cid@copilot.test', password: 'cid-password-1', name: 'Cid Admin' };

beforeAll(async () => {
  ensureStudioBuild();
  studio = await startStudio('copilot');
});
afterAll(async () => {
  for (const close of closers.splice(0)) await close();
  await studio?.stop();
  await stopAll();
});

/** Records the desktop notifications the page raises (a stand-in Notification that reports "granted"). */
const RECORD_NOTIFICATIONS = () => {
  const raised: { title: string; tag?: string }[] = [];
  (window as unknown as { raisedNotifications: typeof raised }).raisedNotifications = raised;
  class RecordingNotification {
    static permission = 'granted';
    static requestPermission = async () => 'granted';
    onclick: (() => void) | null = null;
    constructor(title: string, options: { tag?: string } = {}) {
      raised.push({ title, ...(options.tag ? { tag: options.tag } : {}) });
    }
    close() {}
  }
  (window as unknown as { Notification: unknown }).Notification = RecordingNotification;
};

async function browserAs(credentials: { email: string; password: string }, options: { notifications?: boolean } = {}): Promise<Page> {
  const opened = await openBrowser();
  closers.push(opened.close);
  if (options.notifications) await opened.context.addInitScript(RECORD_NOTIFICATIONS);
  await signIn(opened.page, studio.baseUrl, credentials);
  return opened.page;
}

async function waitLive(page: Page): Promise<void> {
  await page.locator('[data-connection="live"]').waitFor({ timeout: 20_000 });
}

/** The nav's pending badge: its count, or 0 when it is not shown. */
async function badgeCount(page: Page): Promise<number> {
  const count = page.getByRole('link', { name: /^Approvals/ }).locator('.count');
  return (await count.count()) === 0 ? 0 : Number(await count.textContent());
}

async function ask(page: Page, message: string): Promise<void> {
  const input = page.getByLabel('Message the Copilot');
  await input.fill(message);
  await input.press('Enter');
}

/** The approval id of the newest reply that created one, once it is shown. */
async function lastApprovalId(page: Page): Promise<string> {
  const approval = page.locator('#copilot-panel [data-approval-id]').last();
  await approval.waitFor();
  return (await approval.getAttribute('data-approval-id')) ?? '';
}

function replyBadge(page: Page, approvalId: string) {
  return page.locator(`#copilot-panel [data-approval-id="${approvalId}"] [data-status]`);
}

describe('Studio Copilot and approvals', () => {
  it('carries a request from A’s Copilot through B’s live dashboard and back, and keeps another site out of it', async () => {
    onTestFailed(() => console.error(`server output (last 6000 characters):\n${studio.process.output().slice(-6000)}`));
    const root = await ApiClient.signIn(studio.baseUrl, studio.admin.email, studio.admin.password);
    const siteId = await root.createSite('Copilot Site');
    const otherSiteId = await root.createSite('Other Site');
    for (const [person, memberOf] of [
      [ann, siteId],
      [bea, siteId],
      [cid, otherSiteId],
    ] as const) {
      const user = await root.createUser(person);
      await root.addMember(memberOf, user.id, 'admin');
    }
    await root.createCollection(siteId, { name: 'posts', fields: [{ name: 'title', type: 'string' }] });
    await root.createCollection(siteId, { name: 'drafts', fields: [] });
    await root.createCollection(otherSiteId, { name: 'posts', fields: [] });

    const a = await browserAs(ann);
    const b = await browserAs(bea, { notifications: true });
    const c = await browserAs(cid);

    // A works in the collection list; B and C watch their (empty) dashboards.
    await a.waitForURL(/\/content$/);
    await a.locator('tr[data-collection="posts"]').waitFor();
    for (const page of [b, c]) {
      await page.getByRole('link', { name: /^Approvals/ }).click();
      await page.getByText('Nothing waits for approval').waitFor();
    }
    await Promise.all([a, b, c].map(waitLive));
    await screenshot(b, 'approvals-dashboard-empty-before');
    expect(await badgeCount(b)).toBe(0);
    // A reload would drop this property: its survival proves the dashboard changed live.
    await b.evaluate(() => {
      (window as unknown as { marker: string }).marker = 'no-reload';
    });

    // The Copilot's button and panel, measured.
    const viewport = await a.evaluate(() => ({ width: window.innerWidth, height: window.innerHeight }));
    const open = a.getByRole('button', { name: 'Copilot', exact: true });
    expect(await open.getAttribute('aria-expanded')).toBe('false');
    const button = await open.evaluate((element) => element.getBoundingClientRect().toJSON() as DOMRect);
    expect({ width: button.width, height: button.height }).toEqual({ width: 48, height: 48 });
    expect({ right: viewport.width - button.right, bottom: viewport.height - button.bottom }).toEqual({ right: 24, bottom: 24 });
    await open.click();
    const panelLocator = a.locator('#copilot-panel');
    await panelLocator.waitFor();
    const panel = await panelLocator.evaluate((element) => ({
      box: element.getBoundingClientRect().toJSON() as DOMRect,
      backdrop: getComputedStyle(element).backdropFilter,
    }));
    expect({ width: panel.box.width, height: panel.box.height }).toEqual({ width: 320, height: 480 });
    expect(panel.backdrop).toMatch(/blur\(/);
    // The button stays in its corner while the panel is open (it closes it again).
    expect(await open.getAttribute('aria-expanded')).toBe('true');
    expect(await open.evaluate((element) => element.getBoundingClientRect().toJSON() as DOMRect)).toEqual(button);
    const gap = button.top - panel.box.bottom;
    expect({ right: viewport.width - panel.box.right, gap }).toEqual({ right: 24, gap: 16 });
    console.log(
      `studio-copilot: button ${button.width}×${button.height} at right ${viewport.width - button.right} / bottom ${viewport.height - button.bottom}; ` +
        `panel ${panel.box.width}×${panel.box.height}, backdrop-filter ${panel.backdrop}`,
    );

    // A asks for a deletion: the reply waits for approval.
    await ask(a, 'delete collection posts');
    const firstId = await lastApprovalId(a);
    await expect.poll(() => replyBadge(a, firstId).getAttribute('data-status')).toBe('pending_approval');
    expect((await replyBadge(a, firstId).textContent())?.trim()).toBe('Pending approval');
    await screenshot(a, 'copilot-panel-pending');

    // B: badge 1 and the card, without a reload; no toast, as B is on the Approvals page (studio-layout.test.ts has
    // the toast a request raises elsewhere).
    await expect.poll(() => badgeCount(b), { timeout: 10_000 }).toBe(1);
    const card = b.locator(`article[data-approval-id="${firstId}"]`);
    await card.waitFor();
    expect(await b.getByRole('region', { name: 'Notifications' }).getByRole('status').count()).toBe(0);
    expect(await card.locator('h3').textContent()).toBe('Delete a collection');
    expect(await card.locator('pre').textContent()).toBe(JSON.stringify({ name: 'posts' }, null, 2));
    expect(await card.textContent()).toContain('delete collection posts');
    expect(await card.textContent()).toContain('Asked by Ann Admin');
    expect(
      await b.evaluate(() => (window as unknown as { raisedNotifications: { title: string; tag?: string }[] }).raisedNotifications),
    ).toMatchObject([{ title: expect.stringMatching(/^Ann Admin asks for approval: Deletes the collection posts/), tag: firstId }]);
    await screenshot(b, 'approvals-dashboard-cards');
    await screenshotOf(b.locator('aside nav .section').filter({ hasText: 'Approvals' }), 'approvals-nav-badge', { padding: 12 });

    // The time from B's click to A's badge turning executing, then approved, both read from the (shared) wall clock in
    // the pages; B's decide reply is timed too.
    await a.evaluate((approvalId) => {
      const seen: Record<string, number> = {};
      (window as unknown as { badgeTimes: typeof seen }).badgeTimes = seen;
      const selector = `#copilot-panel [data-approval-id="${approvalId}"] [data-status]`;
      const observer = new MutationObserver(() => {
        const status = document.querySelector(selector)?.getAttribute('data-status');
        if (status && !(status in seen)) seen[status] = Date.now();
        if (status === 'approved') observer.disconnect();
      });
      observer.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
    }, firstId);
    await b.evaluate(() => {
      document.addEventListener(
        'click',
        (event) => {
          if ((event.target as Element).closest('button')?.textContent?.includes('Approve'))
            (window as unknown as { clickedAt: number }).clickedAt = Date.now();
        },
        { capture: true, once: true },
      );
    });
    const decideReply = b.waitForResponse((response) => response.url().endsWith(`/ai/approvals/${firstId}/decide`));
    // Deleting a collection is approved after typing its name.
    expect(await card.getByRole('button', { name: 'Approve' }).isDisabled()).toBe(true);
    await card.getByLabel(/^Type posts to approve/).fill('posts');
    await card.getByRole('button', { name: 'Approve' }).click();

    // A's reply turns approved; posts leaves A's list (A did not reload either).
    await expect.poll(() => replyBadge(a, firstId).getAttribute('data-status'), { timeout: 15_000, interval: 50 }).toBe('approved');
    const decided = await decideReply;
    // When B's decide reply finished arriving, on the same wall clock (the resource timing of the request).
    const decidedAt = await b.evaluate((approvalId) => {
      const entry = performance
        .getEntriesByType('resource')
        .findLast((candidate) => candidate.name.endsWith(`/ai/approvals/${approvalId}/decide`)) as PerformanceResourceTiming | undefined;
      return entry ? performance.timeOrigin + entry.responseEnd : Number.NaN;
    }, firstId);
    const clickedAt = await b.evaluate(() => (window as unknown as { clickedAt: number }).clickedAt);
    const times = await a.evaluate(() => (window as unknown as { badgeTimes: Record<string, number> }).badgeTimes);
    const approvedIn = (times.approved ?? Number.NaN) - clickedAt;
    console.log(
      `studio-copilot: B's click → A's badge approved in ${approvedIn} ms` +
        (times.executing ? ` (executing after ${times.executing - clickedAt} ms)` : '') +
        `; B's decide answered ${decided.status()} ${Math.round(decidedAt - clickedAt)} ms after the click`,
    );
    expect(approvedIn).toBeGreaterThan(0);
    await a.locator('tr[data-collection="posts"]').waitFor({ state: 'detached', timeout: 10_000 });
    expect(await a.locator('tr[data-collection="drafts"]').count()).toBe(1);
    expect(await a.locator(`#copilot-panel [data-approval-line="${firstId}"]`).textContent()).toBe('Approved by Bea Admin; done.');
    await screenshot(a, 'copilot-panel-approved');

    // B: the card is gone, the badge too, and B is told the outcome.
    await card.waitFor({ state: 'detached' });
    await b.getByText('Nothing waits for approval').waitFor();
    await b.getByRole('status').filter({ hasText: 'Approved and done: Deletes the collection posts' }).waitFor();
    await expect.poll(() => badgeCount(b)).toBe(0);

    // Esc closes the panel; opening it again shows the same thread.
    const messages = await a.locator('#copilot-panel li[data-role]').count();
    await a.getByLabel('Message the Copilot').press('Escape');
    await panelLocator.waitFor({ state: 'detached' });
    await open.click();
    expect(await a.locator('#copilot-panel li[data-role]').count()).toBe(messages);

    // A second request, rejected by B with a reason: A's reply turns rejected.
    await ask(a, 'delete collection drafts');
    await expect.poll(async () => (await lastApprovalId(a)) !== firstId).toBe(true);
    const secondId = await lastApprovalId(a);
    const second = b.locator(`article[data-approval-id="${secondId}"]`);
    await second.waitFor({ timeout: 10_000 });
    await expect.poll(() => badgeCount(b)).toBe(1);
    await second.getByLabel('Reason for rejecting (optional)').fill('Drafts stay');
    await second.getByRole('button', { name: 'Reject' }).click();
    await expect.poll(() => replyBadge(a, secondId).getAttribute('data-status'), { timeout: 10_000 }).toBe('rejected');
    expect(await a.locator(`#copilot-panel [data-approval-line="${secondId}"]`).textContent()).toBe(
      'Rejected by Bea Admin: “Drafts stay”; nothing was changed.',
    );
    expect(await a.locator('tr[data-collection="drafts"]').count()).toBe(1);
    await second.waitFor({ state: 'detached' });
    await expect.poll(() => badgeCount(b)).toBe(0);
    await screenshot(b, 'approvals-dashboard-empty');
    await screenshot(a, 'copilot-panel-rejected');

    // The rejected tab lists it, with who decided and why.
    await b.getByRole('tab', { name: 'Rejected' }).click();
    await b.waitForURL(/\?status=rejected$/);
    const rejected = b.locator(`article[data-approval-id="${secondId}"]`);
    await rejected.waitFor();
    expect(await rejected.textContent()).toMatch(/Rejected by Bea Admin.*“Drafts stay”/s);
    expect(await b.evaluate(() => (window as unknown as { marker?: string }).marker)).toBe('no-reload');

    // C, in the other site, saw none of it.
    expect(await badgeCount(c)).toBe(0);
    expect(await c.getByRole('region', { name: 'Notifications' }).getByRole('status').count()).toBe(0);
    expect(await c.getByText('Nothing waits for approval').count()).toBe(1);
    expect(await c.locator('article[data-approval-id]').count()).toBe(0);
    const otherCollections = await root.send<{ name: string }[]>('GET', '/collections', { siteId: otherSiteId });
    expect(otherCollections.map(({ name }) => name)).toEqual(['posts']);
  });
});
