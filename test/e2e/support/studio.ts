// Starts an all-in-one LumiBase (own DATA_DIR and port) with the built Studio, and drives Chromium against it.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { freePort, ROOT, type StartedProcess, startTs, stopAll, waitForHttp } from '../../support/processes.js';

export const CHROMIUM = process.env.LUMIBASE_CHROMIUM ?? '/usr/bin/chromium';
export const SCREENSHOTS = join(ROOT, 'test-results/screenshots');
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Builds the Studio when web/build is missing or older than its sources (once per test file). */
export function ensureStudioBuild(): void {
  const result = spawnSync('node', ['scripts/ensure-web-build.mjs'], { cwd: ROOT, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`Studio build failed:\n${result.stdout}\n${result.stderr}`);
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: apt-get install -y chromium`);
}

export interface Credentials {
  email: string;
  password: string;
}

export interface RunningStudio {
  baseUrl: string;
  admin: Credentials;
  process: StartedProcess;
  stop(): Promise<void>;
}

/** `env` adds settings (e.g. a language model at a local fake server). */
export async function startStudio(label: string, { env = {} }: { env?: Record<string, string> } = {}): Promise<RunningStudio> {
  const dataDir = mkdtempSync(join(tmpdir(), `lumibase-e2e-${label}-`));
  const port = await freePort();
  const admin = { email: 'root@studio.test', password: 'root-password-1' };
  const started = startTs('workers/src/all-in-one.ts', {
    env: {
      PORT: String(port),
      DATA_DIR: dataDir,
      LUMIBASE_ADMIN_EMAIL: admin.email,
      LUMIBASE_ADMIN_PASSWORD: admin.password,
      LUMIBASE_DEMO: 'false',
      LOG_LEVEL: 'warn',
      QUEUE_PREFIX: `e2e-${label}-${port}`,
      REDIS_URL: process.env.LUMIBASE_TEST_REDIS_URL ?? '',
      ...env,
    },
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitForHttp(`${baseUrl}/healthz`, { timeoutMs: 90_000 });
  return {
    baseUrl,
    admin,
    process: started,
    async stop() {
      await started.stop('SIGTERM');
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A fresh browser profile: its own cookies and localStorage, like another person's browser; `locale` its language. */
export async function openBrowser({
  width = 1280,
  height = 800,
  locale,
}: {
  width?: number;
  height?: number;
  locale?: string;
} = {}): Promise<{ context: BrowserContext; page: Page; close(): Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), 'lumibase-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width, height },
    ...(locale ? { locale } : {}),
  });
  const page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(15_000);
  return {
    context,
    page,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export async function signIn(page: Page, baseUrl: string, { email, password }: Credentials): Promise<void> {
  await page.goto(`${baseUrl}/sign-in`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.pathname !== '/sign-in');
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  // Let entrance animations settle so the picture shows the resting state.
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** A picture of one part of the page (a navigation section, a card), with `padding` px of its surroundings. */
export async function screenshotOf(locator: Locator, name: string, { padding = 0 } = {}): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const page = locator.page();
  await page.waitForTimeout(300);
  const box = await locator.boundingBox();
  if (!box) throw new Error(`screenshot ${name}: the element is not visible`);
  const clip = {
    x: Math.max(0, box.x - padding),
    y: Math.max(0, box.y - padding),
    width: box.width + 2 * padding,
    height: box.height + 2 * padding,
  };
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), clip });
}

/** Reads the text of a form input's error (its aria-describedby target ending in -error). */
export async function inputError(page: Page, inputId: string): Promise<string> {
  return (await page.locator(`#${inputId}-error`).textContent())?.trim() ?? '';
}

/**
 * The lifecycle every per-test Studio file shares: the build checked once, a fresh all-in-one Studio for
 * each test (own DATA_DIR and port), and every browser it opened closed before the Studio stops.
 */
export function studioPerTest(label: string) {
  let current: RunningStudio | undefined;
  const closers: Array<() => Promise<void>> = [];
  beforeAll(() => ensureStudioBuild());
  beforeEach(async () => {
    current = await startStudio(label);
  });
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
    await current?.stop();
    await stopAll();
  });
  const studio = (): RunningStudio => {
    if (!current) throw new Error('the Studio starts in beforeEach');
    return current;
  };
  const browser = async (options?: { width?: number; height?: number; locale?: string }): Promise<Page> => {
    const opened = await openBrowser(options);
    closers.push(opened.close);
    return opened.page;
  };
  const browserAs = async (credentials: Credentials, options?: { width?: number; height?: number; locale?: string }): Promise<Page> => {
    const page = await browser(options);
    await signIn(page, studio().baseUrl, credentials);
    return page;
  };
  return { studio, browser, browserAs };
}

/**
 * One Studio for a whole file: started (after `setup`, which seeds it through the API) before the first test, every
 * browser closed and the Studio stopped after the last. `openAs` signs in at a viewport and waits for the landing page.
 */
export function studioPerFile(label: string, setup?: (studio: RunningStudio) => Promise<void>) {
  let current: RunningStudio | undefined;
  const closers: Array<() => Promise<void>> = [];
  beforeAll(async () => {
    ensureStudioBuild();
    current = await startStudio(label);
    await setup?.(current);
  });
  afterAll(async () => {
    for (const close of closers.splice(0)) await close();
    await current?.stop();
    await stopAll();
  });
  const studio = (): RunningStudio => {
    if (!current) throw new Error('the Studio starts in beforeAll');
    return current;
  };
  const browser = async (viewport: { width: number; height: number }): Promise<Page> => {
    const opened = await openBrowser(viewport);
    closers.push(opened.close);
    await opened.page.setViewportSize(viewport);
    return opened.page;
  };
  const openAs = async (viewport: { width: number; height: number }, credentials: Credentials = studio().admin): Promise<Page> => {
    const page = await browser(viewport);
    await signIn(page, studio().baseUrl, credentials);
    await page.waitForURL(/\/content$/);
    return page;
  };
  return { studio, browser, openAs };
}

/** How far the page reaches past the viewport's right edge (0 when nothing scrolls sideways). */
export function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}
