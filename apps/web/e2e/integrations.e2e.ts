import { describe, expect, inject, it } from 'vitest';
import { captureScreen } from './harness/browser';
import { login, registerPaidUser, withDb } from './harness/session';
import { browserSuite } from './harness/suite';

const { newPage } = browserSuite();

/** GET /api/integrations only (not its webhooks, test or save calls). */
const INTEGRATIONS_LIST = /\/api\/integrations$/;
const SERVER_ERROR = { status: 500, contentType: 'application/json', body: JSON.stringify({ code: 'INTERNAL', message: 'Internal server error' }) };

describe('integrations', () => {
  it('connects Teams, sends a test alert that arrives, and adds a signed webhook whose secret shows once (advanced)', async () => {
    const user = await registerPaidUser('integrations', 'advanced');
    const { page } = await newPage();
    await login(page, user);
    await page.goto('/integrations');
    await page.getByRole('heading', { name: 'Integrations', exact: true, level: 2 }).waitFor();
    const teams = page.getByTestId('integration-teams');
    await teams.getByText('Not Connected', { exact: true }).waitFor();

    await teams.getByRole('button', { name: 'Configure' }).click();
    const dialog = page.getByRole('dialog', { name: 'Configure Microsoft Teams' });
    const save = dialog.getByRole('button', { name: 'Save Configuration' });
    expect(await save.isDisabled()).toBe(true);
    // The server refuses a plain-http URL; the dialog stays open with its message.
    await dialog.getByLabel('Webhook URL').fill('http://hooks.example.com/teams');
    await save.click();
    await page.getByText('Configuration Failed', { exact: true }).waitFor();
    await page.getByText('Webhook URL must be a valid https:// address').first().waitFor();
    expect(await dialog.isVisible()).toBe(true);

    await dialog.getByLabel('Webhook URL').fill(`${inject('receiverUrl')}/teams/e2e`);
    await save.click();
    await page.getByText('Microsoft Teams integration has been configured successfully.', { exact: true }).waitFor();
    await teams.getByText('Connected', { exact: true }).waitFor();
    expect(await dialog.count()).toBe(0);

    await teams.getByRole('button', { name: 'Send test alert' }).click();
    await page.getByText('A test alert was delivered to Microsoft Teams.', { exact: true }).waitFor();
    await teams.getByText(/Last alert delivered/).waitFor();
    await captureScreen(page, 'integrations');

    const webhooks = page.getByTestId('integration-webhooks');
    await webhooks.getByText('0 active webhooks', { exact: true }).waitFor();
    await webhooks.getByRole('button', { name: 'Manage Webhooks' }).click();
    const manage = page.getByRole('dialog', { name: 'Custom Webhooks' });
    await manage.getByLabel('Endpoint URL').fill(`${inject('receiverUrl')}/hooks/e2e`);
    await manage.getByLabel('Description').fill('Ops bridge');
    await manage.getByRole('button', { name: 'Add webhook' }).click();
    const secret = await manage.getByTestId('webhook-secret').textContent();
    expect(secret).toMatch(/^whsec_/);
    await manage.getByRole('button', { name: 'Send test alert' }).click();
    await page.getByText(/A test alert was delivered to https:\/\/127\.0\.0\.1/).first().waitFor();
    await captureScreen(page, 'integrations-webhooks');
    await manage.getByRole('button', { name: 'Close' }).click();
    await webhooks.getByText('1 active webhooks', { exact: true }).waitFor();
    // Closed and reopened: the secret is not shown again.
    await webhooks.getByRole('button', { name: 'Manage Webhooks' }).click();
    await manage.getByText('Ops bridge').waitFor();
    expect(await manage.getByTestId('webhook-secret').count()).toBe(0);
    await manage.getByRole('button', { name: 'Close' }).click();

    // The list read failing: loading while the app retries, then the failure, never every card "Not Connected".
    await page.route(INTEGRATIONS_LIST, (route) => route.fulfill(SERVER_ERROR));
    await page.reload();
    await page.getByTestId('integrations-loading').waitFor();
    const readError = page.getByTestId('integrations-read-error');
    await readError.getByText("Couldn't load your integrations.", { exact: true }).waitFor();
    expect(await page.getByText('Not Connected').count()).toBe(0);
    await page.unroute(INTEGRATIONS_LIST);
    await readError.getByRole('button', { name: 'Try again' }).click();
    await teams.getByText('Connected', { exact: true }).waitFor();
    expect(await readError.count()).toBe(0);
  });

  it('opens Email Verification from its card, which shows as connected', async () => {
    const user = await registerPaidUser('integrations-verify', 'standard');
    const { page } = await newPage();
    await login(page, user);
    await page.goto('/integrations');
    const card = page.getByTestId('integration-email-verification');
    await card.getByText('Connected', { exact: true }).waitFor();
    expect(await card.getByText(/next release/).count()).toBe(0);
    await card.getByRole('link', { name: 'Open Email Verification' }).click();
    await page.waitForURL('**/email-verification');
    await page.getByRole('heading', { name: 'Email Verification', level: 2 }).waitFor();
  });

  it('shows a basic user the plan notice and greyed, unconfigurable cards', async () => {
    const user = await registerPaidUser('integrations-basic', 'basic');
    const { page } = await newPage();
    await login(page, user);
    await page.goto('/integrations');
    await page.getByText('Integrations are available for Standard and Advanced subscribers only.', { exact: true }).waitFor();
    const slack = page.getByTestId('integration-slack');
    await slack.getByText('Advanced Plan Required').waitFor();
    expect(await slack.getByRole('button').count()).toBe(0);
    await page.getByTestId('integration-email').getByText('Standard Plan Required').waitFor();
    await page.getByTestId('integration-mailchimp').getByText('Advanced Plan Required').waitFor();
    await captureScreen(page, 'integrations-basic');
  });

  it('saves notification preferences on the server: a type turned off stays off after a reload', async () => {
    const user = await registerPaidUser('notification-prefs', 'standard');
    const { page } = await newPage();
    await login(page, user);
    await page.goto('/settings?tab=notifications');
    const dnsChanges = page.getByRole('switch', { name: 'DNS changes' });
    await dnsChanges.waitFor();
    expect(await dnsChanges.getAttribute('aria-checked')).toBe('true');
    await dnsChanges.click();
    await page.getByRole('switch', { name: 'Daily digest instead of each alert' }).click();
    await page.getByRole('button', { name: 'Save Notifications' }).click();
    await page.getByText('Settings Updated', { exact: true }).waitFor();

    await page.reload();
    await page.getByRole('switch', { name: 'DNS changes' }).waitFor();
    expect(await page.getByRole('switch', { name: 'DNS changes' }).getAttribute('aria-checked')).toBe('false');
    expect(await page.getByRole('switch', { name: 'Daily digest instead of each alert' }).getAttribute('aria-checked')).toBe('true');
    await captureScreen(page, 'settings-notifications-saved');
    const saved = await withDb((db) =>
      db.selectFrom('notificationPreferences').innerJoin('users', 'users.id', 'notificationPreferences.userId').select(['mutedTypes', 'digest']).where('users.email', '=', user.email).executeTakeFirstOrThrow(),
    );
    expect(saved).toEqual({ mutedTypes: ['dns_change'], digest: true });
  });
});
