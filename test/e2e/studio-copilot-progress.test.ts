/// <reference lib="dom" />
// A multi-step Copilot turn in Chromium, against a fake OpenAI-compatible model: the panel shows the turn's progress
// as it comes (the skill calls and their status), then the final reply in its place; the deletion the model proposed
// after listing posts carries a readBefore caution, in the panel and on the Approvals card.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { type FakeModelServer, startFakeModelServer } from '../../server/test-support/fake-model-server.js';
import { ApiClient } from '../support/api-client.js';
import { stopAll } from '../support/processes.js';
import { ensureStudioBuild, openBrowser, type RunningStudio, signIn, startStudio } from './support/studio.js';

let studio: RunningStudio;
let model: FakeModelServer;
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  ensureStudioBuild();
  model = await startFakeModelServer('openai');
  studio = await startStudio('copilot-progress', {
    env: { LLM_PROVIDER: 'openai', OPENAI_API_KEY: 'sk-test-progress', OPENAI_BASE_URL: `${model.url}/v1` },
  });
});
afterAll(async () => {
  for (const close of closers.splice(0)) await close();
  await studio?.stop();
  await model?.close();
  await stopAll();
});

async function signedIn(): Promise<Page> {
  const opened = await openBrowser();
  closers.push(opened.close);
  await signIn(opened.page, studio.baseUrl, studio.admin);
  return opened.page;
}

describe('Studio Copilot progress', () => {
  it('shows a turn’s steps as they come, then its reply, and cautions on a deletion proposed after reading posts', async () => {
    onTestFailed(() => console.error(`server output (last 6000 characters):\n${studio.process.output().slice(-6000)}`));
    const root = await ApiClient.signIn(studio.baseUrl, studio.admin.email, studio.admin.password);
    const siteId = await root.createSite('Progress Site');
    await root.createCollection(siteId, { name: 'posts', fields: [{ name: 'title', type: 'string' }] });
    for (const title of ['One', 'Two', 'Three']) await root.createItem(siteId, 'posts', { title });

    model.script([
      { text: 'Reading the posts first.', toolCalls: [{ name: 'listItems', arguments: { collection: 'posts' } }] },
      { text: 'They look stale.', toolCalls: [{ name: 'deleteCollection', arguments: { name: 'posts' } }] },
      // Held back, so the panel shows the turn's progress while the last step is awaited.
      { text: 'Deleting posts waits for an admin’s approval.', delayMs: 4000 },
    ]);

    const page = await signedIn();
    await page.locator('[data-connection="live"]').waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: 'Copilot', exact: true }).click();
    const input = page.getByLabel('Message the Copilot');
    await input.fill('clean up the posts');
    await input.press('Enter');

    const progress = page.locator('#copilot-panel [data-copilot-progress]');
    await progress.locator('[data-progress="tool"][data-status="pending_approval"]').waitFor();
    expect(await progress.locator('[data-progress="tool"]').allTextContents()).toEqual([
      expect.stringContaining('List items: done'),
      expect.stringContaining('Delete a collection: needs an admin’s approval'),
    ]);
    expect(await progress.textContent()).toContain('Reading the posts first.');

    const reply = page.locator('#copilot-panel li[data-role="assistant"]').last();
    await reply.locator('[data-reply]').waitFor({ timeout: 20_000 });
    expect(await progress.count()).toBe(0);
    expect(await reply.locator('[data-reply]').textContent()).toBe('Deleting posts waits for an admin’s approval.');
    const caution = reply.locator('[data-read-before]');
    await caution.waitFor();
    expect(await caution.textContent()).toContain('Proposed after reading 3 items of posts.');

    const approvalId = await reply.locator('[data-approval-id]').last().getAttribute('data-approval-id');
    await page.goto(`${studio.baseUrl}/settings/ai-approvals`);
    const card = page.locator(`article[data-approval-id="${approvalId}"]`);
    await card.waitFor();
    expect(await card.locator('[data-read-before]').textContent()).toContain('Proposed after reading 3 items of posts.');
    expect(await card.locator('[data-read-before]').evaluate((element) => element.classList.contains('alert-warning'))).toBe(true);
  });
});
