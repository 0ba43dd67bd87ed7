/// <reference lib="dom" />
// The API reference at /api/docs renders in Chromium from the server's own assets: no request leaves 127.0.0.1.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stopAll } from '../support/processes.js';
import { CHROMIUM, openBrowser, type RunningStudio, screenshot, startStudio } from './support/studio.js';

let studio: RunningStudio;

beforeAll(async () => {
  studio = await startStudio('api-docs');
});
afterAll(async () => {
  await studio?.stop();
  await stopAll();
});

describe('/api/docs', () => {
  it('renders the operations of the OpenAPI document, fetching nothing from outside the machine', async () => {
    expect(CHROMIUM).toBeTruthy();
    const browser = await openBrowser();
    try {
      const requested: string[] = [];
      browser.page.on('request', (request) => requested.push(request.url()));
      await browser.page.goto(`${studio.baseUrl}/api/docs`);
      await browser.page.getByRole('heading', { name: /LumiBase API/ }).waitFor();
      await browser.page.locator('.opblock-summary-path', { hasText: '/api/v1/ai/approvals/{id}/decide' }).first().waitFor();
      const operations = await browser.page.locator('.opblock').count();
      expect(operations).toBeGreaterThan(20);
      await screenshot(browser.page, 'api-docs');
      expect(requested).toContain(`${studio.baseUrl}/api/v1/openapi.json`);
      const outside = requested.filter((url) => !/^(data:|blob:)/.test(url) && new URL(url).hostname !== '127.0.0.1');
      expect(outside).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
