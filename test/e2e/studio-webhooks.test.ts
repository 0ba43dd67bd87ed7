/// <reference lib="dom" />
// The Studio's Webhooks page in Chromium: add a webhook (secret shown once), send a test event to a local receiver,
// see its last delivery status, remove it.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../support/api-client.js';
import { stopAll } from '../support/processes.js';
import { ensureStudioBuild, openBrowser, type RunningStudio, screenshot, signIn, startStudio } from './support/studio.js';

let studio: RunningStudio;
const received: { headers: Record<string, unknown>; body: string }[] = [];
const receiver = createServer((request, response) => {
  let body = '';
  request.on('data', (chunk) => (body += chunk));
  request.on('end', () => {
    received.push({ headers: request.headers, body });
    response.end();
  });
});

beforeAll(async () => {
  ensureStudioBuild();
  await new Promise<void>((listening) => receiver.listen(0, '127.0.0.1', () => listening()));
  studio = await startStudio('webhooks', { env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
});
afterAll(async () => {
  await studio?.stop();
  await stopAll();
  await new Promise<void>((closed) => receiver.close(() => closed()));
});

describe('Studio webhooks page', () => {
  it('adds a webhook showing its secret once, sends a test event, shows the delivery, and removes it', async () => {
    const api = await ApiClient.signIn(studio.baseUrl, studio.admin.email, studio.admin.password);
    await api.createSite('Hooked Journal');
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    const browser = await openBrowser();
    try {
      const page = browser.page;
      await signIn(page, studio.baseUrl, studio.admin);
      await page.getByRole('link', { name: 'Webhooks' }).click();
      await page.getByRole('heading', { name: 'Add a webhook' }).waitFor();
      await page.getByLabel('Payload URL').fill(url);
      await page.getByRole('button', { name: 'Add webhook' }).click();
      const secret = page.getByTestId('webhook-secret');
      await secret.waitFor();
      expect(await secret.textContent()).toMatch(/^whsec_/);
      const row = page.getByRole('row').filter({ hasText: url });
      await row.waitFor();
      expect(await row.textContent()).toContain('No deliveries yet');
      await page.getByRole('button', { name: 'Send test event' }).click();
      await row.getByText(/delivered \(200\)/).waitFor({ timeout: 15_000 });
      expect(received.at(-1)?.headers['x-lumibase-event']).toBe('webhook-test');
      await screenshot(page, 'studio-webhooks');
      await page.getByRole('button', { name: 'I have copied it' }).click();
      expect(await page.getByTestId('webhook-secret').count()).toBe(0);
      await page.getByRole('button', { name: `Remove ${url}` }).click();
      await page.getByRole('button', { name: 'Remove webhook' }).click();
      await page.getByText('No webhooks yet').waitFor();
    } finally {
      await browser.close();
    }
  });
});
