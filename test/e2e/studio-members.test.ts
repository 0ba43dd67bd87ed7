// The Studio in Chromium, administration: a superadmin creates, renames and deletes a site and creates, renames and
// removes a user; a site admin (users:write, not a superadmin) adds someone without an account in one step (the
// password shown once), adds an existing user by email, changes the role and capabilities, and removes them.
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../support/api-client.js';
import { inputError, screenshot, studioPerTest } from './support/studio.js';

const { studio, browserAs } = studioPerTest('members');

describe('Studio administration', () => {
  it('lets a superadmin create a site and a user from the Studio', async () => {
    const page = await browserAs(studio().admin);
    await page.getByRole('link', { name: 'Sites' }).click();
    await page.getByText('No sites yet').waitFor();
    await page.getByRole('button', { name: 'Create site' }).click();
    expect(await inputError(page, 'site-name')).toBe('Give the site a name');
    await page.getByLabel(/^Site name/).fill('Harbor News');
    await page.getByRole('button', { name: 'Create site' }).click();
    await page.locator('tr[data-site="Harbor News"]').waitFor();
    // The new site is in the switcher at once.
    await page.getByLabel('Site').locator('option', { hasText: 'Harbor News' }).waitFor({ state: 'attached' });
    await screenshot(page, 'admin-sites');

    // Rename it: the table and the switcher follow.
    await page.getByRole('button', { name: 'Rename Harbor News' }).click();
    const rename = page.getByRole('dialog', { name: 'Rename Harbor News' });
    await rename.getByLabel(/^New name/).fill('Harbor Times');
    await rename.getByRole('button', { name: 'Rename' }).click();
    await rename.waitFor({ state: 'hidden' });
    await page.locator('tr[data-site="Harbor Times"]').waitFor();
    await page.getByLabel('Site').locator('option', { hasText: 'Harbor Times' }).waitFor({ state: 'attached' });

    // Delete a second site: only its exact name does it.
    await page.getByLabel(/^Site name/).fill('Scratch');
    await page.getByRole('button', { name: 'Create site' }).click();
    await page.locator('tr[data-site="Scratch"]').waitFor();
    await page.getByRole('button', { name: 'Delete Scratch' }).click();
    const remove = page.getByRole('dialog', { name: 'Delete Scratch?' });
    await remove.getByLabel(/^Type Scratch to confirm/).fill('scratch');
    await remove.getByRole('button', { name: 'Delete site' }).click();
    expect(await inputError(page, 'site-remove-confirm')).toBe('Type Scratch exactly to delete it');
    await remove.getByLabel(/^Type Scratch to confirm/).fill('Scratch');
    await remove.getByRole('button', { name: 'Delete site' }).click();
    await page.locator('tr[data-site="Scratch"]').waitFor({ state: 'detached' });
    await page.locator('tr[data-site="Harbor Times"]').waitFor();
    expect(await page.locator('tr[data-site="Harbor Times"]').count()).toBe(1);

    await page.getByRole('link', { name: 'Users' }).click();
    await page.locator(`tr[data-user="${studio().admin.email}"]`).waitFor();
    await page.getByLabel(/^Email/).fill('new.person@studio.test');
    await page.getByLabel(/^Name/).fill('New Person');
    await page.getByLabel(/^Initial password/).fill('short');
    await page.getByRole('button', { name: 'Create user' }).click();
    expect(await inputError(page, 'user-password')).toBe('Use at least 8 characters');
    await page.getByLabel(/^Initial password/).fill('long-enough-1');
    await page.getByRole('button', { name: 'Create user' }).click();
    await page.locator('tr[data-user="new.person@studio.test"]').waitFor();
    // The same email again: the API's 409 is explained by the email input.
    await page.getByLabel(/^Email/).fill('new.person@studio.test');
    await page.getByLabel(/^Name/).fill('Again');
    await page.getByLabel(/^Initial password/).fill('long-enough-1');
    await page.getByRole('button', { name: 'Create user' }).click();
    await page.locator('#user-email-error').waitFor();
    expect(await inputError(page, 'user-email')).toBe('An account with this email already exists');
    await screenshot(page, 'admin-users');

    // Rename the new user, then remove them; the superadmin has no Remove on their own row.
    await page.getByRole('button', { name: 'Rename new.person@studio.test' }).click();
    const renameUser = page.getByRole('dialog', { name: 'Rename New Person' });
    await renameUser.getByLabel(/^New name/).fill('Renamed Person');
    await renameUser.getByRole('button', { name: 'Rename' }).click();
    await page.locator('tr[data-user="new.person@studio.test"]', { hasText: 'Renamed Person' }).waitFor();
    expect(await page.getByRole('button', { name: `Remove ${studio().admin.email}` }).count()).toBe(0);
    await page.getByRole('button', { name: 'Remove new.person@studio.test' }).click();
    await page.getByRole('dialog', { name: 'Remove Renamed Person?' }).getByRole('button', { name: 'Remove user' }).click();
    await page.locator('tr[data-user="new.person@studio.test"]').waitFor({ state: 'detached' });
  });

  it('lets a site admin add a member by email, change their role and capabilities, and remove them', async () => {
    const api = await ApiClient.signIn(studio().baseUrl, studio().admin.email, studio().admin.password);
    const siteId = await api.createSite('Team Site');
    const carol = { email: 'carol@studio.test', password: 'carol-password-1' };
    const carolUser = await api.createUser({ ...carol, name: 'Carol Admin' });
    await api.addMember(siteId, carolUser.id, 'admin');
    await api.createUser({ email: 'dan@studio.test', name: 'Dan Writer', password: 'dan-password-1' });

    const page = await browserAs(carol);
    await page.getByRole('link', { name: 'Members' }).click();
    await page.locator('tr[data-member="carol@studio.test"]').waitFor();
    // Carol is no superadmin: no administration section.
    expect(await page.getByRole('link', { name: 'Sites' }).count()).toBe(0);

    // An email with no account: a name is asked for, then the account is created and added in one step.
    await page.getByLabel(/^Email/).fill('erin@studio.test');
    await page.getByRole('button', { name: 'Add member' }).click();
    await page.locator('#member-name-error').waitFor();
    expect(await inputError(page, 'member-name')).toMatch(/Required for a new account/);
    await page.getByLabel(/^Name/).fill('Erin New');
    await page.getByRole('button', { name: 'Add member' }).click();
    const password = (await page.getByTestId('one-time-password').textContent()) ?? '';
    expect(password.length).toBeGreaterThanOrEqual(12);
    await page.locator('tr[data-member="erin@studio.test"]').waitFor();
    await page.getByRole('button', { name: 'Done' }).click();
    expect(await page.getByTestId('one-time-password').count()).toBe(0);
    const erinsPage = await browserAs({ email: 'erin@studio.test', password });
    await erinsPage.getByText('Team Site · 0 collections').waitFor();

    // Add Dan as a viewer with one extra capability.
    await page.getByLabel(/^Email/).fill('dan@studio.test');
    await page.getByLabel('Role', { exact: true }).selectOption('viewer');
    await page.locator('#member-add-content\\:write').check();
    await page.getByRole('button', { name: 'Add member' }).click();
    const dan = page.locator('tr[data-member="dan@studio.test"]');
    await dan.waitFor();
    expect(await dan.textContent()).toContain('viewer');
    expect(await dan.locator('.badge-success').allTextContents()).toEqual(['content:write']);
    await screenshot(page, 'members');

    // Change Dan's role to editor.
    await page.getByRole('button', { name: 'Edit dan@studio.test' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Dan Writer' });
    await edit.getByLabel('Role', { exact: true }).selectOption('editor');
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.waitFor({ state: 'hidden' });
    await dan.filter({ hasText: 'editor' }).waitFor();

    // Dan can now sign in to Team Site as an editor.
    const dansPage = await browserAs({ email: 'dan@studio.test', password: 'dan-password-1' });
    await dansPage.getByText('Team Site · 0 collections').waitFor();

    // Remove Dan, after confirming.
    await page.getByRole('button', { name: 'Remove dan@studio.test' }).click();
    const confirm = page.getByRole('dialog', { name: 'Remove Dan Writer?' });
    await confirm.getByRole('button', { name: 'Remove member' }).click();
    await dan.waitFor({ state: 'detached' });
    expect(await page.locator('tr[data-member]').count()).toBe(2);

    // Dan has no site any more.
    await dansPage.reload();
    await dansPage.getByText('You are not in any site yet').waitFor();
  });
});
