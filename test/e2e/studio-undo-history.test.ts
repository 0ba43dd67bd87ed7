/// <reference lib="dom" />
// Nothing the Copilot does is irreversible, in Chromium: an executed updateItem undone from the Copilot panel, an
// approved deleteItem undone the same way (the item back under its id), an item restored from its History tab, and the
// audit log showing its hash chain intact (issue 16).
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it, onTestFailed } from 'vitest';
import { ApiClient } from '../support/api-client.js';
import { SCREENSHOTS, screenshot, screenshotOf, studioPerFile } from './support/studio.js';

const ann = { email: 'ann@undo.test', password: 'ann-password-1', name: 'Ann Admin' };
let root: ApiClient;
let siteId: string;

const { studio, openAs } = studioPerFile('undo-history', async (started) => {
  root = await ApiClient.signIn(started.baseUrl, started.admin.email, started.admin.password);
  siteId = await root.createSite('Undo Site');
  const user = await root.createUser(ann);
  await root.addMember(siteId, user.id, 'admin');
  await root.createCollection(siteId, {
    name: 'posts',
    fields: [
      { name: 'title', type: 'string' },
      { name: 'body', type: 'text' },
    ],
  });
});

const VIEWPORT = { width: 1280, height: 860 };

async function openPosts(): Promise<Page> {
  const page = await openAs(VIEWPORT, ann);
  await page.goto(`${studio().baseUrl}/content/posts`);
  await page.locator('[data-connection="live"]').waitFor({ timeout: 20_000 });
  return page;
}

async function ask(page: Page, message: string): Promise<void> {
  const input = page.getByLabel('Message the Copilot');
  await input.fill(message);
  await input.press('Enter');
}

const itemData = async (id: string) => (await root.send<{ data: Record<string, unknown> }>('GET', `/items/posts/${id}`, { siteId })).data;

/** A picture for the closing note, also kept under /tmp. */
async function picture(page: Page, selector: string, name: string) {
  await screenshotOf(page.locator(selector), name, { padding: 8 });
  copyFileSync(join(SCREENSHOTS, `${name}.png`), `/tmp/${name}.png`);
}

describe('Undo and history in the Studio', () => {
  it('undoes an executed updateItem from the Copilot panel: the old title is back, in the API and in the table', async () => {
    onTestFailed(() => console.error(`server output:\n${studio().process.output().slice(-6000)}`));
    const { id } = await root.createItem(siteId, 'posts', { title: 'Old title', body: 'Kept' });
    const page = await openPosts();
    await page.locator('tbody tr').filter({ hasText: 'Old title' }).waitFor();

    await page.getByRole('button', { name: 'Copilot', exact: true }).click();
    await ask(page, `update item ${id} in posts with {"title":"Model's title"}`);
    const reply = page.locator('#copilot-panel [data-outcome="executed"]').last();
    await reply.waitFor({ timeout: 20_000 });
    await page.locator('tbody tr').filter({ hasText: "Model's title" }).waitFor();
    expect((await itemData(id)).title).toBe("Model's title");

    await reply.getByRole('button', { name: 'Undo' }).click();
    const notice = page.locator('#copilot-panel [data-notice]').last();
    await notice.waitFor({ timeout: 15_000 });
    expect((await notice.textContent())?.trim()).toBe('Undone: “Old title” in posts is back as it was (revision 1)');
    const undone = reply.getByRole('button', { name: 'Undone' });
    expect(await undone.isDisabled()).toBe(true);

    expect(await itemData(id)).toEqual({ title: 'Old title', body: 'Kept' });
    await page.locator('tbody tr').filter({ hasText: 'Old title' }).waitFor();
    expect(await page.locator('tbody tr').filter({ hasText: "Model's title" }).count()).toBe(0);
    const revisions = await root.send<{ revision: number; action: string; via: string }[]>('GET', `/items/posts/${id}/revisions`, {
      siteId,
    });
    expect(revisions.map(({ revision, action, via }) => `${revision} ${action} ${via}`)).toEqual([
      '3 restored restore',
      '2 updated copilot',
      '1 created rest',
    ]);
    await picture(page, '#copilot-panel', 'copilot-undo');
  });

  it('undoes an approved deleteItem from the Copilot panel: the item is back under its id', async () => {
    const { id } = await root.createItem(siteId, 'posts', { title: 'Deleted by mistake' });
    const page = await openPosts();
    await page.locator('tbody tr').filter({ hasText: 'Deleted by mistake' }).waitFor();
    await page.getByRole('button', { name: 'Copilot', exact: true }).click();
    await ask(page, `delete item ${id} from posts`);
    const approval = page.locator('#copilot-panel [data-approval-id]').last();
    await approval.waitFor({ timeout: 20_000 });
    const approvalId = (await approval.getAttribute('data-approval-id')) ?? '';

    const decided = await root.send('POST', `/ai/approvals/${approvalId}/decide`, { siteId, body: { decision: 'approved' } });
    expect(decided.status).toBe('approved');
    // Gone: an id the site no longer has reads like any unknown id.
    expect((await root.request('GET', `/items/posts/${id}`, { siteId })).status).not.toBe(200);
    await expect.poll(() => page.locator('tbody tr').filter({ hasText: 'Deleted by mistake' }).count(), { timeout: 15_000 }).toBe(0);

    const outcome = page.locator('#copilot-panel [data-outcome="pending_approval"]').last();
    await outcome.getByRole('button', { name: 'Undo' }).click({ timeout: 15_000 });
    await page.locator('#copilot-panel [data-notice]').last().waitFor({ timeout: 15_000 });
    expect(await itemData(id)).toEqual({ title: 'Deleted by mistake' });
    await page.locator('tbody tr').filter({ hasText: 'Deleted by mistake' }).waitFor();
  });

  it('restores revision 1 from the History tab: the form shows the old data', async () => {
    const { id } = await root.createItem(siteId, 'posts', { title: 'First draft', body: 'Opening' });
    const page = await openPosts();

    // Two edits through the Studio's form.
    for (const [from, to] of [
      ['First draft', 'Second draft'],
      ['Second draft', 'Final version'],
    ] as const) {
      await page.getByRole('button', { name: `Edit ${from}` }).click();
      const edit = page.getByRole('dialog', { name: /Edit item/ });
      await edit.getByLabel(/^Title/).fill(to);
      await edit.getByRole('button', { name: 'Save changes' }).click();
      await edit.waitFor({ state: 'hidden' });
      await page.locator('tbody tr').filter({ hasText: to }).waitFor();
    }

    await page.getByRole('button', { name: 'Edit Final version' }).click();
    const panel = page.getByRole('dialog', { name: /Edit item/ });
    // The sheet opens on the form, focus in its first input (not on the tabs above it).
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('item-field-title');
    await panel.getByRole('tab', { name: 'History' }).click();
    const rows = panel.locator('tr[data-revision]');
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(3);
    expect(await rows.evaluateAll((list) => list.map((row) => (row as HTMLElement).dataset.revision))).toEqual(['3', '2', '1']);
    expect(await rows.first().textContent()).toMatch(/Updated.*Studio or API.*Ann Admin/s);
    expect(await rows.last().textContent()).toMatch(/Created/);

    await panel.getByRole('button', { name: 'Compare revision 1 with now' }).click();
    const change = panel.locator('[data-diff="1"] tr[data-field="title"]');
    expect(await change.getAttribute('data-change')).toBe('changed');
    expect(await change.textContent()).toMatch(/Final version.*First draft/s);
    await picture(page, '[role="dialog"][open], dialog[open]', 'item-history-diff');

    await panel.getByRole('button', { name: 'Restore revision 1' }).click();
    await panel.locator('[data-restored="1"]').waitFor({ timeout: 15_000 });
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(4);
    expect(await rows.first().textContent()).toMatch(/4.*Restored.*Restore.*Ann Admin/s);

    await panel.getByRole('tab', { name: 'Edit' }).click();
    expect(await panel.getByLabel(/^Title/).inputValue()).toBe('First draft');
    expect(await panel.getByLabel(/^Body/).inputValue()).toBe('Opening');
    expect(await itemData(id)).toEqual({ title: 'First draft', body: 'Opening' });
    await page.locator('tbody tr').filter({ hasText: 'First draft' }).waitFor();
  });

  it('shows the audit chain as valid in the audit log, with the number of entries the API verifies', async () => {
    const page = await openAs(VIEWPORT, ann);
    await page.getByRole('link', { name: 'Audit log' }).click();
    const chain = page.locator('[data-chain]');
    await expect.poll(() => chain.getAttribute('data-chain'), { timeout: 15_000 }).toBe('valid');
    const verified = await root.send<{ valid: boolean; entries: number }>('GET', '/ai/audit/verify', { siteId });
    expect(verified.valid).toBe(true);
    expect(verified.entries).toBeGreaterThan(0);
    expect(await chain.textContent()).toMatch(new RegExp(`Valid\\s*${verified.entries} entries verified`));
    // The entries themselves, newest first: the restores of this file are there.
    await page.locator('tr[data-action="restored"]').first().waitFor();
    await page.getByRole('button', { name: 'Check again' }).click();
    await expect.poll(() => chain.getAttribute('data-chain')).toBe('valid');
    await screenshot(page, 'audit-chain-valid');
  });
});
