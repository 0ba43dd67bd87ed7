/// <reference lib="dom" />
// The Studio in Chromium: sign-in failure and success, landing in a site, the choice surviving a reload, switching, sign-out.
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../support/api-client.js';
import { screenshot, signIn, studioPerTest } from './support/studio.js';

const { studio, browser } = studioPerTest('sign-in');

describe('Studio sign-in', () => {
  it('says inline that a wrong password does not match, and stays on the sign-in page', async () => {
    const page = await browser();
    await page.goto(`${studio().baseUrl}/content`);
    // A signed-out visit to a page goes to sign-in.
    await page.waitForURL(/\/sign-in/);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    // The form starts on the email input, ready to type.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('email');
    await screenshot(page, 'sign-in');
    await page.getByLabel('Email').fill(studio().admin.email);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toContain('That email and password do not match an account.');
    expect(await page.getByLabel('Password').inputValue()).toBe('');
    expect(await page.getByLabel('Email').isEnabled()).toBe(true);
    expect(new URL(page.url()).pathname).toBe('/sign-in');
    await screenshot(page, 'sign-in-error');
  });

  it('signs in, picks a site, keeps it across a reload, switches sites from the navigation, and signs out', async () => {
    const api = await ApiClient.signIn(studio().baseUrl, studio().admin.email, studio().admin.password);
    await api.createSite('Alpha Journal');
    await api.createSite('Beta Shop');
    const page = await browser();

    // Keyboard only: the form starts on the email input; Tab moves on with a visible focus ring; Enter submits.
    await page.goto(`${studio().baseUrl}/`);
    await page.waitForURL(/\/sign-in/);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await page.keyboard.type(studio().admin.email);
    await page.keyboard.press('Tab');
    await page.keyboard.type(studio().admin.password);
    await page.keyboard.press('Tab');
    await page.waitForTimeout(250); // the ring fades in (120 ms transition)
    const focused = await page.evaluate(() => {
      const element = document.activeElement as HTMLElement;
      return { text: element.textContent?.trim(), ring: getComputedStyle(element).boxShadow };
    });
    expect(focused.text).toBe('Sign in');
    expect(focused.ring).toContain('rgba(79, 70, 229');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');

    // Two sites: the Studio asks which one.
    await page.getByRole('heading', { name: 'Choose a site' }).waitFor();
    await screenshot(page, 'site-picker');
    await page.getByRole('button', { name: /Beta Shop/ }).click();
    await page.waitForURL(/\/content$/);
    await page.getByRole('heading', { name: 'Collections', exact: true }).waitFor();
    await page.getByText('No collections yet').waitFor();
    expect(await page.getByLabel('Site').locator('option:checked').textContent()).toBe('Beta Shop');

    await page.reload();
    await page.getByRole('heading', { name: 'Collections', exact: true }).waitFor();
    expect(await page.getByLabel('Site').locator('option:checked').textContent()).toBe('Beta Shop');

    await page.getByLabel('Site').selectOption({ label: 'Alpha Journal' });
    await page.getByText('Alpha Journal · 0 collections').waitFor();
    await page.reload();
    await page.getByText('Alpha Journal · 0 collections').waitFor();

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/sign-in/);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    // The cookie no longer works: a protected page sends us back to sign-in.
    await page.goto(`${studio().baseUrl}/content`);
    await page.waitForURL(/\/sign-in/);
  });

  it('lands a member of one site straight in that site', async () => {
    const api = await ApiClient.signIn(studio().baseUrl, studio().admin.email, studio().admin.password);
    const siteId = await api.createSite('Solo Site');
    const user = await api.createUser({ email: 'eve@studio.test', name: 'Eve Editor', password: 'eve-password-1' });
    await api.addMember(siteId, user.id, 'editor');
    const page = await browser();
    await signIn(page, studio().baseUrl, { email: 'eve@studio.test', password: 'eve-password-1' });
    await page.waitForURL(/\/content$/);
    await page.getByText('Solo Site · 0 collections').waitFor();
    // An editor may not change the schema: no "New collection" button, no Members link.
    expect(await page.getByRole('button', { name: 'New collection' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Members' }).count()).toBe(0);
  });
});
