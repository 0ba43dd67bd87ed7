/// <reference lib="dom" />
// The Studio in Chromium, issue 29: with the policy's `warn`, a change the Copilot runs for one admin is pushed to every
// admin as a notice; a second admin sees it live (a toast, and in "Recent Copilot actions" on the Approvals page), reads
// who did what in plain words, and undoes it.
import { mkdirSync } from 'node:fs';
import { expect, it } from 'vitest';
import { ApiClient } from '../support/api-client.js';
import { screenshot, screenshotOf, studioPerTest } from './support/studio.js';

const { studio, browserAs } = studioPerTest('copilot-notice');

it('shows a second admin the notice of a warned change live, and its Undo puts the item back', async () => {
  const api = await ApiClient.signIn(studio().baseUrl, studio().admin.email, studio().admin.password);
  const siteId = await api.createSite('Notice Site');
  const bea = { email: 'bea@notice.test', password: 'bea-password-1' };
  const user = await api.createUser({ ...bea, name: 'Bea Admin' });
  await api.addMember(siteId, user.id, 'admin');
  await api.createCollection(siteId, { name: 'posts', fields: [{ name: 'title', type: 'string', required: true }] });
  const item = await api.createItem(siteId, 'posts', { title: 'Launch on June 1' });
  await api.expect(200, 'PUT', '/ai/policy', { siteId, body: { skills: { updateItem: 'warn' } } });

  const other = await browserAs(bea);
  await other
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: /Approvals/ })
    .click();
  await other.waitForURL(/\/settings\/ai-approvals/);

  // The first admin's Copilot changes the item: it runs at once, and every admin is told.
  const reply = await api.chat(siteId, `update item ${item.id} in posts with {"title": "Launch cancelled"}`);
  expect(reply.status).toBe('executed');

  const toast = other.locator('[data-copilot-notice]');
  await toast.waitFor({ timeout: 15_000 });
  const words = (await toast.textContent()) ?? '';
  expect(words).toContain('Copilot changed item');
  expect(words).toContain('in posts');
  // Plain words: no skill name.
  expect(words).not.toMatch(/updateItem/);
  await other.locator('[data-recent-notice]').first().waitFor({ timeout: 15_000 });
  mkdirSync('/work/notes/shots/warn', { recursive: true });
  await screenshotOf(toast, 'copilot-notice-toast', { padding: 8 });
  await toast.screenshot({ path: '/work/notes/shots/warn/copilot-notice-toast.png' }).catch(() => {});
  await screenshot(other, 'copilot-notice-approvals-page');
  await other.screenshot({ path: '/work/notes/shots/warn/copilot-notice-approvals-page.png', fullPage: true }).catch(() => {});

  await toast.getByRole('button', { name: 'Undo' }).click();
  await toast.getByText('Undone').waitFor({ timeout: 15_000 });
  const restored = await api.send('GET', `/items/posts/${item.id}`, { siteId });
  expect(restored.data.title).toBe('Launch on June 1');
});
