import { readFile } from 'node:fs/promises';
import { accountExportSchema } from '@sendwell/contracts';
import { inject } from 'vitest';
import { describe, expect, it } from 'vitest';
import { waitForMail } from './harness/mailbox';
import { apiCall, apiToken, login, registerPaidUser, withDb } from './harness/session';
import { browserSuite } from './harness/suite';

const { newPage } = browserSuite();

describe('Settings → Account', () => {
  it('saves the name, changes the password (other sessions end), downloads the data and deletes the account', async () => {
    const user = await registerPaidUser('account', 'free');
    const otherDevice = await apiToken(user);
    const { page } = await newPage();
    await login(page, user);
    await page.goto('/settings');
    await page.getByRole('tab', { name: 'Account' }).click();

    // Name: saved by the server, kept after a reload.
    await page.getByLabel('First name').fill('Katherine');
    await page.getByLabel('Last name').fill('Johnson');
    await page.getByRole('button', { name: 'Save Profile' }).click();
    await page.getByText('Settings Updated', { exact: true }).waitFor();
    const named = await withDb((db) => db.selectFrom('users').select(['firstName', 'lastName']).where('email', '=', user.email).executeTakeFirstOrThrow());
    expect(named).toEqual({ firstName: 'Katherine', lastName: 'Johnson' });

    // Password: a wrong current one is refused with the server's message; the right one ends the other session.
    await page.getByLabel('Current password').fill('not-my-password');
    await page.getByLabel('New password', { exact: true }).fill('a-new-password-7');
    await page.getByLabel('Confirm new password').fill('a-new-password-7');
    await page.getByRole('button', { name: 'Update Password' }).click();
    await page.getByText('Your current password is incorrect. Your password was not changed.', { exact: true }).waitFor();
    await page.getByLabel('Current password').fill(user.password);
    await page.getByRole('button', { name: 'Update Password' }).click();
    await page.getByText('Password Updated', { exact: true }).waitFor();
    expect((await apiCall(otherDevice, 'GET', '/api/user')).status).toBe(401);
    await waitForMail(inject('mailboxUrl'), user.email, /Your Sendwell password was changed/);

    // Export: one JSON file of the user's own data.
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download my data' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(`sendwell-export-${new Date().toISOString().slice(0, 10)}.json`);
    const exported = accountExportSchema.parse(JSON.parse(await readFile((await file.path())!, 'utf8')));
    expect(exported.profile).toMatchObject({ email: user.email, firstName: 'Katherine' });

    // Deletion: confirmed with the (new) password; the user is logged out and the rows are gone.
    await page.getByRole('button', { name: 'Delete Account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
    await dialog.getByLabel('Password').fill('a-new-password-7');
    await dialog.getByRole('button', { name: 'Delete Account' }).click();
    await page.waitForURL('**/login');
    expect(await page.evaluate(() => localStorage.getItem('auth_token'))).toBeNull();
    const left = await withDb((db) => db.selectFrom('users').select('id').where('email', '=', user.email).executeTakeFirst());
    expect(left).toBeUndefined();
  });
});
