/// <reference lib="dom" />
// The run continues, in Chromium (echo planner): Ann asks the Copilot for a schema change, Bea approves it on her
// Approvals page in another browser, and the continuation's reply appears in Ann's Copilot panel live, while Bea's
// card shows the approval settled. A rejection's reply says why.
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { ApiClient } from '../support/api-client.js';
import { stopAll } from '../support/processes.js';
import { ensureStudioBuild, openBrowser, type RunningStudio, SCREENSHOTS, screenshotOf, signIn, startStudio } from './support/studio.js';

let studio: RunningStudio;
let root: ApiClient;
let siteId: string;
const closers: (() => Promise<void>)[] = [];
const ann = { email: 'ann@runs.test', password: 'ann-password-1', name: 'Ann Admin' };
const bea = { email: 'bea@runs.test', password: 'bea-password-1', name: 'Bea Admin' };

beforeAll(async () => {
  ensureStudioBuild();
  studio = await startStudio('copilot-continuation', { env: { LLM_PROVIDER: 'echo' } });
  root = await ApiClient.signIn(studio.baseUrl, studio.admin.email, studio.admin.password);
  siteId = await root.createSite('Runs Site');
  for (const person of [ann, bea]) {
    const user = await root.createUser(person);
    await root.addMember(siteId, user.id, 'admin');
  }
  // A Studio build (when web/ changed) and a server start: minutes on a loaded machine.
}, 300_000);
afterAll(async () => {
  for (const close of closers.splice(0)) await close();
  await studio?.stop();
  await stopAll();
});

async function browserOf(person: typeof ann, path: string): Promise<Page> {
  const opened = await openBrowser();
  closers.push(opened.close);
  await signIn(opened.page, studio.baseUrl, person);
  await opened.page.goto(`${studio.baseUrl}${path}`);
  await opened.page.locator('[data-connection="live"]').waitFor({ timeout: 20_000 });
  return opened.page;
}

/** Ann's message in her Copilot panel; answers the approval id of the reply. */
async function ask(page: Page, message: string): Promise<string> {
  const input = page.getByLabel('Message the Copilot');
  await input.fill(message);
  await input.press('Enter');
  const reply = page.locator('#copilot-panel li[data-role="assistant"]').last();
  await reply.locator('[data-approval-id]').waitFor({ timeout: 20_000 });
  return (await reply.locator('[data-approval-id]').last().getAttribute('data-approval-id'))!;
}

async function picture(page: Page, selector: string, name: string) {
  await screenshotOf(page.locator(selector), name, { padding: 8 });
  const notes = '/work/notes/shots/runs';
  try {
    mkdirSync(notes, { recursive: true });
    copyFileSync(join(SCREENSHOTS, `${name}.png`), join(notes, `${name}.png`));
  } catch {
    // Only where the notes folder exists.
  }
}

describe('Studio: the run continues after a decision', () => {
  it('approved by a second admin: the reply appears in the requester’s panel, live; rejected: the reply says why', async () => {
    onTestFailed(() => console.error(`server output (last 6000 characters):\n${studio.process.output().slice(-6000)}`));
    const annPage = await browserOf(ann, '/');
    await annPage.getByRole('button', { name: 'Copilot', exact: true }).click();
    const approvalId = await ask(annPage, 'create collection events');

    const beaPage = await browserOf(bea, '/settings/ai-approvals');
    const card = beaPage.locator(`#approval-${approvalId}`);
    await card.waitFor();
    await card.getByRole('button', { name: /^Approve/ }).click();

    const continued = annPage.locator('#copilot-panel [data-continued]');
    await continued.first().waitFor({ timeout: 30_000 });
    expect(await continued.first().textContent()).toBe('Done: the step ran.');
    // It is the last message of Ann's thread, after her request's reply.
    expect(await annPage.locator('#copilot-panel li[data-role="assistant"]').last().locator('[data-continued]').count()).toBe(1);
    await expect.poll(async () => (await root.request('GET', '/collections/events', { siteId })).status, { timeout: 15_000 }).toBe(200);
    // Bea's browser got no reply of Ann's run.
    expect(await beaPage.locator('[data-continued]').count()).toBe(0);
    await picture(annPage, '#copilot-panel', 'copilot-continuation-approved');

    const rejectedId = await ask(annPage, 'create collection launches');
    const second = beaPage.locator(`#approval-${rejectedId}`);
    await second.waitFor();
    await second.getByLabel('Reason for rejecting (optional)').fill('not this quarter');
    await second.getByRole('button', { name: /^Reject/ }).click();
    await expect
      .poll(() => annPage.locator('#copilot-panel [data-continued]').last().textContent(), { timeout: 30_000 })
      .toBe('The plan was rejected: not this quarter.');
    await picture(annPage, '#copilot-panel', 'copilot-continuation-rejected');
  });
});
