/// <reference lib="dom" />
// Approve exactly what you saw, in Chromium: the approval card shows the impact and the time left; a click on a card
// whose impact grew meanwhile runs nothing and says why; Edit mode is a form of the skill's arguments with errors in
// words, saved as a new revision whose impact the card shows before Approve runs exactly that (issue 26 item 4,
// issue 32 item 7).
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { stopAll } from '../support/processes.js';
import { ApiClient } from '../support/api-client.js';
import { ensureStudioBuild, openBrowser, type RunningStudio, SCREENSHOTS, screenshotOf, signIn, startStudio } from './support/studio.js';

let studio: RunningStudio;
let root: ApiClient;
let siteId: string;
let ann: ApiClient;
const closers: (() => Promise<void>)[] = [];
const bea = { email: 'bea@trust.test', password: 'bea-password-1', name: 'Bea Admin' };

beforeAll(async () => {
  ensureStudioBuild();
  studio = await startStudio('approval-trust');
  root = await ApiClient.signIn(studio.baseUrl, studio.admin.email, studio.admin.password);
  siteId = await root.createSite('Trust Site');
  ann = await root.createMember(siteId, 'admin');
  const user = await root.createUser(bea);
  await root.addMember(siteId, user.id, 'admin');
});
afterAll(async () => {
  for (const close of closers.splice(0)) await close();
  await studio?.stop();
  await stopAll();
});

async function beaOnApprovals(): Promise<Page> {
  const opened = await openBrowser();
  closers.push(opened.close);
  await signIn(opened.page, studio.baseUrl, bea);
  await opened.page.goto(`${studio.baseUrl}/settings/ai-approvals`);
  await opened.page.locator('[data-connection="live"]').waitFor({ timeout: 20_000 });
  return opened.page;
}

/** A picture for the closing note, also kept under /tmp. */
async function picture(page: Page, approvalId: string, name: string) {
  await screenshotOf(page.locator(`#approval-${approvalId}`), name, { padding: 8 });
  copyFileSync(join(SCREENSHOTS, `${name}.png`), `/tmp/${name}.png`);
}

describe('Studio approval card', () => {
  it('shows the impact and the time left; a click after the impact grew runs nothing and explains it', async () => {
    onTestFailed(() => console.error(`server output:\n${studio.process.output().slice(-6000)}`));
    await root.createCollection(siteId, { name: 'drafts', fields: [{ name: 'title', type: 'string' }] });
    await root.createItem(siteId, 'drafts', { title: 'Launch plan' });
    await root.createItem(siteId, 'drafts', { title: 'Press release' });
    const asked = await ann.chat(siteId, 'delete collection drafts');
    expect(asked.status).toBe('pending_approval');

    const page = await beaOnApprovals();
    const card = page.locator(`#approval-${asked.approvalId}`);
    await card.waitFor();
    await expect.poll(() => card.locator('[data-impact]').textContent()).toMatch(/Deletes the collection drafts and its 2 items/);
    expect(await card.locator('[data-impact]').textContent()).toMatch(/Launch plan[\s\S]*Press release|Press release[\s\S]*Launch plan/);
    // The deletion goes to the trash: the card says for how long it can be restored (TRASH_RETENTION_DAYS).
    expect(await card.locator('[data-restorable]').textContent()).toMatch(/can be restored for 30 days/);
    // APPROVAL_TTL_SECONDS' default, 72 hours, minus the seconds since the request (rounded up to the minute).
    expect((await card.locator('[data-time-left]').textContent())?.trim()).toMatch(/^(3 days|2 days 23 hours) left$/);
    await picture(page, asked.approvalId, 'approval-card-impact-time-left');

    // Someone adds important content after Bea looked: her click must not delete it silently.
    await root.createItem(siteId, 'drafts', { title: 'New important item' });
    // Deleting a collection is approved only after typing its name.
    await card.getByLabel(/^Type drafts to approve/).fill('drafts');
    await card.getByRole('button', { name: /^Approve/ }).click();
    await expect
      .poll(() => card.getByRole('alert').textContent(), { timeout: 10_000 })
      .toMatch(/Nothing was done: this request changed since you saw it/);
    await expect.poll(() => card.locator('[data-impact]').textContent()).toMatch(/and its 3 items/);
    await picture(page, asked.approvalId, 'approval-card-stale-click');
    expect((await root.send('GET', '/items/drafts', { siteId })).length).toBe(3);
  });

  it('edit, save, see the new impact, then approve: the form says what is wrong in words, the edited arguments run', async () => {
    onTestFailed(() => console.error(`server output:\n${studio.process.output().slice(-6000)}`));
    await root.createCollection(siteId, { name: 'wrong_one', fields: [{ name: 'title', type: 'string' }] });
    await root.createItem(siteId, 'wrong_one', { title: 'Keep this' });
    await root.createItem(siteId, 'wrong_one', { title: 'And this' });
    await root.createCollection(siteId, { name: 'right_one', fields: [] });
    const asked = await ann.chat(siteId, 'delete collection wrong_one');
    const page = await beaOnApprovals();
    const card = page.locator(`#approval-${asked.approvalId}`);
    await card.waitFor();
    await expect.poll(() => card.locator('[data-impact]').textContent()).toMatch(/Deletes the collection wrong_one and its 2 items/);

    await card.getByRole('button', { name: 'Edit' }).click();
    // A form, not JSON: a labelled input per argument; no Approve until the edit is saved.
    const name = card.getByRole('textbox', { name: 'Name' });
    expect(await name.inputValue()).toBe('wrong_one');
    expect(await card.locator('textarea').count()).toBe(0);
    expect(await card.getByRole('button', { name: /^Approve/ }).count()).toBe(0);

    await name.fill('Right One');
    const error = card.locator(`#${await name.getAttribute('id')}-error`);
    await expect.poll(() => error.textContent()).toMatch(/Use lowercase letters, digits and _, starting with a letter/);
    expect(await error.textContent()).not.toMatch(/\^|\$|\[a-z|JSON|position/);
    expect(await name.getAttribute('aria-invalid')).toBe('true');
    expect(await name.getAttribute('aria-describedby')).toContain(`${await name.getAttribute('id')}-error`);
    expect(await card.getByRole('button', { name: 'Save edit' }).isDisabled()).toBe(true);
    await picture(page, asked.approvalId, 'approval-card-edit-form-error');

    await name.fill('right_one');
    await expect.poll(() => card.locator('[data-diff]').textContent()).toMatch(/Name: wrong_one → right_one/);
    await picture(page, asked.approvalId, 'approval-card-edit-form');
    await card.getByRole('button', { name: 'Save edit' }).click();

    // Saved as a new revision: nothing ran, the card shows what the edited request will do, and offers Approve.
    await expect
      .poll(() => card.locator('[data-impact]').textContent(), { timeout: 10_000 })
      .toMatch(/Deletes the collection right_one and its 0 items/);
    expect(await card.locator('[data-edit-note]').textContent()).toMatch(/Edit saved\. Nothing has run/);
    expect(await card.locator('[data-edited-by]').textContent()).toMatch(/Edited by Bea Admin[\s\S]*Name: wrong_one → right_one/);
    const saved = await root.send('GET', `/ai/approvals/${asked.approvalId}`, { siteId });
    expect(saved).toMatchObject({ status: 'pending', revision: 2, arguments: { name: 'right_one' }, editedBy: { name: bea.name } });
    expect((await root.request('GET', '/collections/right_one', { siteId })).status).toBe(200);
    await picture(page, asked.approvalId, 'approval-card-edit-saved');

    // The name to type is the edited one: what will be deleted.
    await card.getByLabel(/^Type right_one to approve/).fill('right_one');
    await card.getByRole('button', { name: 'Approve' }).click();
    await expect.poll(async () => (await root.request('GET', '/collections/right_one', { siteId })).status, { timeout: 15_000 }).toBe(404);
    expect((await root.send('GET', '/items/wrong_one', { siteId })).length).toBe(2);
    const read = () => root.send('GET', `/ai/approvals/${asked.approvalId}`, { siteId });
    await expect.poll(async () => (await read()).status, { timeout: 10_000 }).toBe('approved');
    expect(await read()).toMatchObject({
      status: 'approved',
      revision: 4,
      arguments: { name: 'right_one' },
      originalArguments: { name: 'wrong_one' },
      editedBy: { name: bea.name },
      decidedBy: { name: bea.name },
    });
  });
});
