/// <reference lib="dom" />
// A plan on the Approvals page, in Chromium (issue 28), against a fake OpenAI-compatible model: Ann asks the Copilot
// for a change of several dependent calls, which becomes one plan; Bea, in another browser, sees it as numbered steps
// with their impacts, approves all; the steps advance live in both browsers (Bea's card, Ann's card and Copilot
// panel), and the continuation's reply appears in Ann's panel. Then Bea edits a step and removes another before
// approving what the saved revision shows. Screenshots of the card at phone and desktop size.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { type FakeModelServer, startFakeModelServer } from '../../server/test-support/fake-model-server.js';
import { ApiClient } from '../support/api-client.js';
import { stopAll } from '../support/processes.js';
import {
  ensureStudioBuild,
  horizontalOverflow,
  openBrowser,
  type RunningStudio,
  SCREENSHOTS,
  screenshotOf,
  signIn,
  startStudio,
} from './support/studio.js';

let studio: RunningStudio;
let model: FakeModelServer;
let root: ApiClient;
let siteId: string;
const closers: (() => Promise<void>)[] = [];
const ann = { email: 'ann@plans.test', password: 'ann-password-1', name: 'Ann Admin' };
const bea = { email: 'bea@plans.test', password: 'bea-password-1', name: 'Bea Admin' };
const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

beforeAll(async () => {
  ensureStudioBuild();
  model = await startFakeModelServer('openai');
  studio = await startStudio('plan-card', {
    env: { LLM_PROVIDER: 'openai', OPENAI_API_KEY: 'sk-test-plan-card', OPENAI_BASE_URL: `${model.url}/v1` },
  });
  root = await ApiClient.signIn(studio.baseUrl, studio.admin.email, studio.admin.password);
  siteId = await root.createSite('Plans Site');
  for (const person of [ann, bea]) {
    const user = await root.createUser(person);
    await root.addMember(siteId, user.id, 'admin');
  }
  // A Studio build (when web/ changed) and a server start: minutes on a loaded machine.
}, 300_000);
afterAll(async () => {
  for (const close of closers.splice(0)) await close();
  await studio?.stop();
  await model?.close();
  await stopAll();
});

async function browserOf(person: typeof ann, viewport: { width: number; height: number }): Promise<Page> {
  const opened = await openBrowser(viewport);
  closers.push(opened.close);
  await signIn(opened.page, studio.baseUrl, person);
  await opened.page.goto(`${studio.baseUrl}/settings/ai-approvals`);
  // On a phone the connection line is folded away: present, not shown.
  await opened.page.locator('[data-connection="live"]').waitFor({ state: 'attached', timeout: 20_000 });
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

/** Records every distinct list of step states the page shows under `selector`, as it changes (no reload). */
async function recordSteps(page: Page, selector: string): Promise<void> {
  await page.evaluate((under) => {
    const seen: string[] = [];
    (window as unknown as { seenSteps: string[] }).seenSteps = seen;
    const snap = () => {
      const states = [...document.querySelectorAll(`${under} li[data-step]`)].map((item) => item.getAttribute('data-step-status'));
      const line = states.join(',');
      if (line && seen.at(-1) !== line) seen.push(line);
    };
    new MutationObserver(snap).observe(document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['data-step-status'],
    });
    snap();
  }, selector);
}

/** A picture of a whole card, taller than a phone's screen included (the screenshot helpers clip to the viewport). */
async function wholeCard(card: Locator, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await card.page().waitForTimeout(300);
  await card.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
}

const seenSteps = (page: Page) => page.evaluate(() => (window as unknown as { seenSteps: string[] }).seenSteps);
const statesIn = (page: Page, selector: string) =>
  page.locator(`${selector} li[data-step]`).evaluateAll((items) => items.map((item) => item.getAttribute('data-step-status')));

const EVENTS_CALLS = [
  { name: 'createCollection', arguments: { name: 'events' } },
  { name: 'createField', arguments: { collection: 'events', field: { name: 'title', type: 'string', required: true } } },
  { name: 'createField', arguments: { collection: 'events', field: { name: 'date', type: 'datetime' } } },
  { name: 'createItem', arguments: { collection: 'events', data: { title: 'Launch party', date: '2026-12-15T18:00:00Z' } } },
];
const CONTINUATION = 'Done: the events collection is set up, with the launch party in it.';

describe('Studio: a plan on the approval card', () => {
  it('a second admin approves all; the steps advance live in both browsers; the continuation reaches the requester', async () => {
    onTestFailed(() => console.error(`server output (last 6000 characters):\n${studio.process.output().slice(-6000)}`));
    model.script([
      { toolCalls: EVENTS_CALLS },
      { text: 'I planned the events collection; an admin must approve it.' },
      // The run continues once the plan is settled: the model hears the outcome and says so.
      { text: CONTINUATION },
    ]);
    const annPage = await browserOf(ann, DESKTOP);
    await annPage.getByRole('button', { name: 'Copilot', exact: true }).click();
    const approvalId = await ask(annPage, 'set up an events collection with a title and a date, and add the launch party');
    // Ann's panel shows one plan of four steps (not four requests).
    const panelPlan = '#copilot-panel [data-plan-steps]';
    await annPage.locator(panelPlan).waitFor();
    expect(await annPage.locator('#copilot-panel [data-plan]').last().textContent()).toBe("A plan of 4 steps needs an admin's approval");
    expect(await statesIn(annPage, panelPlan)).toEqual(['planned', 'planned', 'planned', 'planned']);

    const beaPage = await browserOf(bea, DESKTOP);
    const card = beaPage.locator(`#approval-${approvalId}`);
    await card.waitFor();
    const steps = card.locator('[data-plan-steps] li[data-step]');
    expect(await steps.locator('[data-step-sentence]').allTextContents()).toEqual([
      'Step 1: Creates the collection events.',
      'Step 2: Adds the field title to events.',
      'Step 3: Adds the field date to events.',
      'Step 4: Creates an item in events.',
    ]);
    expect(await steps.nth(2).locator('[data-impact]').textContent()).toMatch(/date.*events.*step 1/);
    expect(await card.textContent()).not.toMatch(/createCollection|createField|createItem/);
    await wholeCard(card, '28-plan-card-desktop');

    // The same card on a phone: steps stacked, nothing wider than the screen, the title keeps the card's width.
    const phone = await browserOf(bea, PHONE);
    const phoneCard = phone.locator(`#approval-${approvalId}`);
    await phoneCard.waitFor();
    expect(await horizontalOverflow(phone)).toBe(0);
    const title = await phoneCard.locator('h3').boundingBox();
    const cardBox = await phoneCard.boundingBox();
    expect(title!.width).toBeGreaterThan(cardBox!.width * 0.6);
    const boxes = await phoneCard
      .locator('[data-plan-steps] li[data-step]')
      .evaluateAll((items) => items.map((item) => item.getBoundingClientRect()).map(({ left, top, right }) => ({ left, top, right })));
    for (const [index, box] of boxes.entries()) {
      expect(box.right).toBeLessThanOrEqual(PHONE.width);
      if (index > 0) expect(box.top).toBeGreaterThan(boxes[index - 1]!.top);
    }
    await wholeCard(phoneCard, '28-plan-card-phone');

    const annNavigations: string[] = [];
    annPage.on('framenavigated', (frame) => {
      if (frame === annPage.mainFrame()) annNavigations.push(frame.url());
    });
    await recordSteps(annPage, panelPlan);
    await recordSteps(beaPage, `#approval-${approvalId} [data-plan-steps]`);
    await card.getByRole('button', { name: 'Approve all (4 steps)' }).click();

    // Ann's panel follows the plan live to its end, then the continuation's reply arrives.
    await expect.poll(() => statesIn(annPage, panelPlan), { timeout: 30_000 }).toEqual(['done', 'done', 'done', 'done']);
    const continued = annPage.locator('#copilot-panel [data-continued]');
    await continued.first().waitFor({ timeout: 30_000 });
    expect(await continued.first().textContent()).toBe(CONTINUATION);
    expect(await annPage.locator(`#copilot-panel [data-approval-line="${approvalId}"]`).textContent()).toMatch(
      /^Approved by Bea Admin; all 4 steps done\.$/,
    );
    await screenshotOf(annPage.locator('#copilot-panel'), '28-plan-copilot-panel-desktop', { padding: 4 });
    // Bea's card showed the steps advance while the plan ran (each step a pushed revision), then left the pending list.
    const beaSeen = await seenSteps(beaPage);
    console.info(`step states seen live — Bea's card: ${beaSeen.join(' | ')}; Ann's panel: ${(await seenSteps(annPage)).join(' | ')}`);
    expect(beaSeen[0]).toBe('planned,planned,planned,planned');
    expect(beaSeen.length).toBeGreaterThan(1);
    expect(beaSeen.slice(1).some((line) => line.startsWith('done'))).toBe(true);
    expect(annNavigations).toEqual([]);
    const annSeen = await seenSteps(annPage);
    expect(annSeen.at(-1)).toBe('done,done,done,done');
    await card.waitFor({ state: 'detached', timeout: 15_000 });

    // Both browsers show the plan with every step done on the Approved tab.
    for (const page of [annPage, beaPage]) {
      await page.goto(`${studio.baseUrl}/settings/ai-approvals?status=approved`);
      const approved = page.locator(`#approval-${approvalId}`);
      await approved.waitFor();
      expect(await statesIn(page, `#approval-${approvalId} [data-plan-steps]`)).toEqual(['done', 'done', 'done', 'done']);
      expect(await approved.locator('[data-plan-progress]').textContent()).toBe('All 4 steps done.');
    }
    await wholeCard(beaPage.locator(`#approval-${approvalId}`), '28-plan-card-done-desktop');
    const items = await root.request('GET', '/items/events', { siteId });
    expect((items.body as { data: { data: Record<string, unknown> }[] }).data.map((item) => item.data.title)).toEqual(['Launch party']);
  }, 180_000);

  it('edits a step and removes another, then approves what the saved revision shows', async () => {
    onTestFailed(() => console.error(`server output (last 6000 characters):\n${studio.process.output().slice(-6000)}`));
    model.script([
      {
        toolCalls: [
          { name: 'createCollection', arguments: { name: 'talks' } },
          { name: 'createField', arguments: { collection: 'talks', field: { name: 'title', type: 'string' } } },
          { name: 'createField', arguments: { collection: 'talks', field: { name: 'room', type: 'string' } } },
        ],
      },
      { text: 'I planned the talks collection.' },
      { text: 'Done: the talks collection is set up.' },
    ]);
    const annPage = await browserOf(ann, DESKTOP);
    await annPage.getByRole('button', { name: 'Copilot', exact: true }).click();
    const approvalId = await ask(annPage, 'set up a talks collection with a title and a room');

    const beaPage = await browserOf(bea, PHONE);
    const card = beaPage.locator(`#approval-${approvalId}`);
    await card.waitFor();
    await card.getByRole('button', { name: /^Edit$/ }).click();
    await card.getByRole('button', { name: 'Edit step 3' }).click();
    const name = card.locator(`#approval-${approvalId}-step-3-arg-field-name`);
    await name.fill('Room Number');
    await expect
      .poll(() => card.locator(`#approval-${approvalId}-step-3-arg-field-name-error`).textContent())
      .toMatch(/Use lowercase letters/);
    expect(await card.getByRole('button', { name: /Save edit/ }).isDisabled()).toBe(true);
    await name.fill('venue');
    await card.getByRole('button', { name: 'Remove step 2' }).click();
    expect(await horizontalOverflow(beaPage)).toBe(0);
    await wholeCard(card, '28-plan-card-edit-phone');
    await card.getByRole('button', { name: /Save edit/ }).click();

    // The saved revision: two steps, their impacts taken again, and Approve all for them.
    const approve = card.getByRole('button', { name: 'Approve all (2 steps)' });
    await approve.waitFor();
    expect(await card.locator('[data-plan-steps] [data-step-sentence]').allTextContents()).toEqual([
      'Step 1: Creates the collection talks.',
      'Step 2: Adds the field venue to talks.',
    ]);
    expect(await card.locator('[data-plan-steps] li[data-step="2"] [data-impact]').textContent()).toMatch(/venue/);
    expect(await card.locator('[data-edited-by]').textContent()).toMatch(/Edited by Bea Admin\b.*; the Copilot proposed 3 steps/);
    await approve.click();
    // The plan runs step by step: the collection first, then its field.
    const fieldsOfTalks = async () => {
      const talks = await root.request('GET', '/collections/talks', { siteId });
      return talks.status === 200 ? (talks.body as { data: { fields: { name: string }[] } }).data.fields.map((field) => field.name) : [];
    };
    await expect.poll(fieldsOfTalks, { timeout: 30_000 }).toEqual(['venue']);
    await expect
      .poll(() => annPage.locator('#copilot-panel [data-continued]').last().textContent(), { timeout: 30_000 })
      .toBe('Done: the talks collection is set up.');
  }, 180_000);
});
