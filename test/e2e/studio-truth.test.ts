/// <reference lib="dom" />
// The Studio tells the truth (issue 32, points 2, 3, 5, 6, 11), in Chromium against an all-in-one server with no model
// (the echo planner): the requester reads the final arguments after an approver's edit and "withdrawn" for their own
// rejection; a target changed over REST expires the card live, with its reason, for approver and requester; search and
// assist answers are cards without JSON (JSON only behind "details"), retrieval labelled "closest existing text";
// nonsense finds no matches; no camelCase skill name in cards, toasts or the Copilot; the offline notice.
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { SKILL_NAMES } from '@lumibase/shared';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { stopAll } from '../support/processes.js';
import { ApiClient } from '../support/api-client.js';
import { ensureStudioBuild, openBrowser, type RunningStudio, SCREENSHOTS, screenshotOf, signIn, startStudio } from './support/studio.js';

const NOTES_SHOTS = '/work/notes/shots/truth';
const CAMEL_SKILL = new RegExp(`\\b(${SKILL_NAMES.join('|')})\\b`);

let studio: RunningStudio;
let root: ApiClient;
let siteId: string;
let beaApi: ApiClient;
const closers: (() => Promise<void>)[] = [];
const ann = { email: 'ann@truth.test', password: 'ann-password-1', name: 'Ann Editor' };
const bea = { email: 'bea@truth.test', password: 'bea-password-1', name: 'Bea Admin' };

beforeAll(async () => {
  ensureStudioBuild();
  studio = await startStudio('truth');
  root = await ApiClient.signIn(studio.baseUrl, studio.admin.email, studio.admin.password);
  siteId = await root.createSite('Truth Site');
  for (const person of [ann, bea]) {
    const user = await root.createUser(person);
    await root.addMember(siteId, user.id, 'admin');
  }
  beaApi = await ApiClient.signIn(studio.baseUrl, bea.email, bea.password);
}, 600_000);
afterAll(async () => {
  for (const close of closers.splice(0)) await close();
  await studio?.stop();
  await stopAll();
});

async function browserOf(person: { email: string; password: string }, path: string, size = { width: 1440, height: 900 }): Promise<Page> {
  const opened = await openBrowser(size);
  closers.push(opened.close);
  await signIn(opened.page, studio.baseUrl, person);
  await opened.page.goto(`${studio.baseUrl}${path}`);
  await opened.page.locator('[data-connection="live"]').waitFor({ timeout: 20_000 });
  return opened.page;
}

/** A picture for the closing note (test-results/screenshots and /work/notes/shots/truth when it exists). */
async function picture(locator: Locator, name: string) {
  await screenshotOf(locator, name, { padding: 8 });
  try {
    mkdirSync(NOTES_SHOTS, { recursive: true });
    copyFileSync(join(SCREENSHOTS, `${name}.png`), join(NOTES_SHOTS, `${name}.png`));
  } catch {
    // Outside the review machine there is no notes folder: the picture stays under test-results.
  }
}

async function openCopilot(page: Page) {
  await page.getByRole('button', { name: 'Copilot', exact: true }).click();
  await page.locator('#copilot-panel').waitFor();
}

async function ask(page: Page, message: string): Promise<Locator> {
  const before = await page.locator('#copilot-panel li[data-role="assistant"]').count();
  const input = page.getByLabel('Message the Copilot');
  await input.fill(message);
  await input.press('Enter');
  const reply = page.locator('#copilot-panel li[data-role="assistant"]').nth(before);
  await reply.waitFor({ timeout: 20_000 });
  return reply;
}

/** What a person sees: rendered text only (a closed "details" shows its summary, not its JSON). */
const seen = (locator: Locator) => locator.evaluate((element) => (element as HTMLElement).innerText);

describe('Studio tells the truth', () => {
  it('says the requester’s words after an edit ("with changes by Bea", the edited name) and "withdrawn" for their own rejection', async () => {
    onTestFailed(() => console.error(`server output:\n${studio.process.output().slice(-6000)}`));
    await root.createCollection(siteId, { name: 'posts', fields: [{ name: 'title', type: 'string' }] });
    const page = await browserOf(ann, '/content');
    await openCopilot(page);
    const reply = await ask(page, 'add field teaser to posts as text');
    const approvalId = await reply.locator('[data-approval-id]').getAttribute('data-approval-id');
    expect(approvalId).toBeTruthy();

    // Bea changes the field's name (an edit is its own step: PATCH, a new revision), then approves that revision.
    const pending = await beaApi.send<{ revision: number }>('GET', `/ai/approvals/${approvalId}`, { siteId });
    const edited = await beaApi.send<{ revision: number }>('PATCH', `/ai/approvals/${approvalId}`, {
      siteId,
      body: {
        revision: pending.revision,
        arguments: { collection: 'posts', field: { name: 'standfirst', type: 'text', required: false } },
      },
    });
    await beaApi.send('POST', `/ai/approvals/${approvalId}/decide`, { siteId, body: { decision: 'approved', revision: edited.revision } });
    const line = page.locator(`#copilot-panel [data-approval-line="${approvalId}"]`);
    await expect.poll(() => line.textContent(), { timeout: 15_000 }).toMatch(/done\.$/);
    const words = (await line.textContent()) ?? '';
    expect(words).toMatch(
      /^Approved with changes by Bea Admin: adds the field standfirst to posts \(asked: adds the field teaser to posts\); done\.$/,
    );
    await picture(reply, 'after-2-requester-approved-with-changes');

    const withdrawn = await ask(page, 'delete collection posts');
    const withdrawnId = await withdrawn.locator('[data-approval-id]').getAttribute('data-approval-id');
    const annApi = await ApiClient.signIn(studio.baseUrl, ann.email, ann.password);
    await annApi.send('POST', `/ai/approvals/${withdrawnId}/decide`, { siteId, body: { decision: 'rejected' } });
    const withdrawnLine = page.locator(`#copilot-panel [data-approval-line="${withdrawnId}"]`);
    await expect.poll(() => withdrawnLine.textContent(), { timeout: 15_000 }).toMatch(/^Withdrawn by Ann Editor/);
    expect(await withdrawnLine.textContent()).not.toMatch(/Rejected/);
    expect(await withdrawn.locator('[data-status]').textContent()).toMatch(/Withdrawn/);
    await picture(withdrawn, 'after-2-withdrawn');
    expect(await seen(page.locator('#copilot-panel'))).not.toMatch(CAMEL_SKILL);
  });

  it('expires a card live when its target changes over REST, and says why to the approver and the requester', async () => {
    await root.createCollection(siteId, { name: 'notes', fields: [{ name: 'title', type: 'string' }] });
    const requester = await browserOf(ann, '/content');
    await openCopilot(requester);
    const reply = await ask(requester, 'delete collection notes');
    const approvalId = await reply.locator('[data-approval-id]').getAttribute('data-approval-id');

    const approver = await browserOf(bea, '/settings/ai-approvals');
    const card = approver.locator(`#approval-${approvalId}`);
    await card.waitFor();
    // The card names the change in words, never the skill's internal name.
    expect(await card.locator('h3').textContent()).toBe('Delete a collection');
    expect(await seen(card)).not.toMatch(CAMEL_SKILL);
    await picture(card, 'after-5-approval-card-label');

    // Someone deletes and recreates the collection over REST: nobody decides, the card goes with its reason.
    await root.send('DELETE', '/collections/notes', { siteId });
    await root.createCollection(siteId, { name: 'notes', fields: [{ name: 'title', type: 'string' }] });
    await card.waitFor({ state: 'detached', timeout: 20_000 });
    const notice = approver.getByText(/the collection notes was deleted, recreated or changed after the request/).first();
    await notice.waitFor({ timeout: 10_000 });
    expect(await notice.textContent()).not.toMatch(CAMEL_SKILL);
    expect(await notice.textContent()).not.toMatch(/Someone else decided first/);
    await picture(approver.locator('main'), 'after-3-approver-target-changed');

    const line = requester.locator(`#copilot-panel [data-approval-line="${approvalId}"]`);
    await expect
      .poll(() => line.textContent(), { timeout: 15_000 })
      .toBe('Expired: the collection notes was deleted, recreated or changed after the request; nothing was changed.');
    await picture(reply, 'after-3-requester-target-changed');
  });

  it('answers search and assist as cards without JSON, labels retrieval honestly, finds nothing for nonsense, and says it is offline', async () => {
    await root.createCollection(siteId, {
      name: 'recipes',
      label: 'Recipes',
      fields: [
        { name: 'title', type: 'string' },
        { name: 'body', type: 'text' },
      ],
    });
    await root.createItem(siteId, 'recipes', { title: 'Chocolate cake', body: 'A dark chocolate cake with cocoa and butter.' });
    await root.createItem(siteId, 'recipes', { title: 'Sourdough bread', body: 'Bake sourdough bread at home with a starter.' });
    const page = await browserOf(bea, '/content', { width: 1024, height: 768 });
    await openCopilot(page);

    const offline = page.locator('#copilot-panel [data-offline-notice]');
    expect(await seen(offline)).toMatch(/No AI model is connected/);
    await offline.locator('summary').click();
    expect(await seen(offline)).toMatch(/LLM_PROVIDER/);
    expect(await seen(offline)).toMatch(/search for <words>/);
    await picture(offline, 'after-6-offline-notice');

    // Items are embedded in the background: ask until the cake is found.
    let search: Locator | undefined;
    for (let attempt = 0; attempt < 30; attempt++) {
      const reply = await ask(page, 'search for chocolate cake');
      if ((await reply.locator('[data-hit="match"] a', { hasText: 'Chocolate cake' }).count()) > 0) {
        search = reply;
        break;
      }
      await page.waitForTimeout(1000);
    }
    if (!search) throw new Error('the search never found the chocolate cake');
    const hit = search.locator('[data-hit="match"]').first();
    expect(await hit.locator('a').getAttribute('href')).toMatch(/^\/content\/recipes\?item=/);
    expect(await seen(hit)).toMatch(/Recipes/);
    const shown = await seen(search);
    expect(shown).not.toMatch(/"score"|"model"|local-hash|\{|%/);
    expect(shown).not.toMatch(CAMEL_SKILL);
    await search.locator('[data-details] summary').click();
    expect(await seen(search.locator('[data-details]'))).toMatch(/"score"/);
    await search.locator('[data-details] summary').click();
    await picture(search, 'after-5-search-cards');

    const nonsense = await ask(page, 'search for qqqxxyz');
    expect(await seen(nonsense)).not.toMatch(/\d+ match/);
    expect(await nonsense.locator('[data-hit="match"]').count()).toBe(0);

    const assist = await ask(page, 'assist title in recipes: a chocolate dessert');
    expect(await seen(assist)).toMatch(/Closest existing text/);
    expect(await seen(assist)).not.toMatch(/Draft content/);
    expect(await seen(assist)).not.toMatch(/"value"|"sources"|\{/);
    await picture(assist, 'after-6-assist-closest-text');

    // The navigation's search: nonsense is "No matches", never "8 matches"; hits carry labels, not percentages.
    const box = page.getByRole('combobox', { name: 'Search content' });
    await box.fill('qqqxxyz');
    await box.press('Enter');
    const state = page.getByRole('region', { name: 'Search results' }).getByRole('status').first();
    await state.filter({ hasNotText: 'Searching…' }).waitFor();
    expect((await state.textContent())?.trim()).toBe('No matches');
    await picture(page.getByRole('region', { name: 'Search results' }), 'after-11-search-nonsense');
    await box.fill('chocolate cake');
    await box.press('Enter');
    await state.filter({ hasText: /match/ }).filter({ hasNotText: 'Searching…' }).waitFor();
    const first = page.getByRole('listbox', { name: 'Matching items' }).getByRole('option').first();
    expect(await seen(first)).toMatch(/Recipes/);
    expect(await seen(first)).not.toMatch(/%/);
    await picture(page.getByRole('region', { name: 'Search results' }), 'after-11-search-labels');
  });

  it('toasts a request in words, not the skill’s internal name', async () => {
    await root.createCollection(siteId, { name: 'events', fields: [{ name: 'title', type: 'string' }] });
    const page = await browserOf(bea, '/content');
    const annApi = await ApiClient.signIn(studio.baseUrl, ann.email, ann.password);
    await annApi.send('POST', '/ai/chat', { siteId, body: { message: 'delete collection events' } });
    const toast = page.getByRole('region', { name: 'Notifications' }).getByRole('status').filter({ hasText: 'asks for approval' });
    await toast.waitFor({ timeout: 15_000 });
    expect(await seen(toast)).toMatch(/Ann Editor asks for approval: Deletes the collection events/);
    expect(await seen(toast)).not.toMatch(CAMEL_SKILL);
    await picture(toast, 'after-5-request-toast');
  });
  it('the server’s own words name skills by their action: a skill turned off reads “Delete a collection” is turned off', async () => {
    await root.createCollection(siteId, { name: 'drafts', fields: [{ name: 'title', type: 'string' }] });
    await beaApi.send('PUT', '/ai/policy', { siteId, body: { skills: { deleteCollection: 'off' } } });
    try {
      // On the wire: the chat's answer and its outcome's message, before any Studio wording.
      const answered = await beaApi.send<{ results: { message?: string; skill: { name: string } }[] }>('POST', '/ai/chat', {
        siteId,
        body: { message: 'delete collection drafts' },
      });
      expect(answered.results[0]).toMatchObject({
        skill: { name: 'deleteCollection' },
        message: '“Delete a collection” is turned off for this site',
      });
      for (const result of answered.results) expect(result.message ?? '').not.toMatch(CAMEL_SKILL);
      const page = await browserOf(bea, '/content');
      await openCopilot(page);
      const reply = await ask(page, 'delete collection drafts');
      await expect.poll(() => seen(reply)).toMatch(/“Delete a collection” is turned off for this site/);
      expect(await seen(page.locator('#copilot-panel'))).not.toMatch(CAMEL_SKILL);
    } finally {
      await beaApi.send('PUT', '/ai/policy', { siteId, body: { skills: { deleteCollection: 'ask' } } });
    }
  });

  it('says for how many days a deleted collection or field can be restored, in the prompts and on the cards', async () => {
    await root.createCollection(siteId, {
      name: 'binned',
      fields: [
        { name: 'title', type: 'string' },
        { name: 'note', type: 'string' },
      ],
    });
    await root.createItem(siteId, 'binned', { title: 'Kept for a while', note: 'n' });
    const page = await browserOf(bea, '/content');
    const dialog = page.getByRole('dialog');
    // The collections list's prompt.
    await page.getByRole('button', { name: 'Delete collection binned' }).click();
    await expect.poll(() => seen(dialog.locator('[data-restorable]'))).toMatch(/restored for 30 days/);
    await picture(dialog, 'after-9-collection-delete-prompt');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    // The collection page's prompts: removing a field, deleting the collection.
    await page.goto(`${studio.baseUrl}/content/binned?tab=fields`);
    await page.getByRole('button', { name: 'Remove field note' }).click();
    await expect.poll(() => seen(dialog.locator('[data-restorable]'))).toMatch(/restored for 30 days/);
    await picture(dialog, 'after-9-field-remove-prompt');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'Delete collection', exact: true }).click();
    await expect.poll(() => seen(dialog.locator('[data-restorable]'))).toMatch(/restored for 30 days/);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    // The approval cards of both deletions say the same.
    const annApi = await ApiClient.signIn(studio.baseUrl, ann.email, ann.password);
    const field = await annApi.send<{ approvalId: string }>('POST', '/ai/chat', {
      siteId,
      body: { message: 'delete field note from binned' },
    });
    const collection = await annApi.send<{ approvalId: string }>('POST', '/ai/chat', {
      siteId,
      body: { message: 'delete collection binned' },
    });
    await page.goto(`${studio.baseUrl}/settings/ai-approvals`);
    for (const id of [field.approvalId, collection.approvalId]) {
      const card = page.locator(`#approval-${id}`);
      await card.waitFor();
      expect(await seen(card.locator('[data-restorable]'))).toMatch(/can be restored for 30 days/);
    }
  });
});
