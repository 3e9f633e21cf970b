import { MAIL_FLOW_PLAN_MESSAGE, type MailFlow, type ReceivedReports, type ReportAddresses, type TlsReports } from '@sendwell/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MailFlowView } from './mail-flow-section';

const addresses = (firstReportAt: string | null): ReportAddresses => ({
  domain: 'example.com',
  dmarcAddress: 'abc123@reports.sendwell.test',
  tlsRptAddress: 'tls-abc123@reports.sendwell.test',
  tlsRptUrl: 'https://app.sendwell.test/api/intake/tls-rpt/abc123',
  records: [
    { type: 'TXT', host: '_dmarc.example.com', value: 'v=DMARC1; p=none; rua=mailto:abc123@reports.sendwell.test', purpose: 'Asks receivers for DMARC reports.' },
    { type: 'TXT', host: '_smtp._tls.example.com', value: 'v=TLSRPTv1; rua=mailto:tls-abc123@reports.sendwell.test', purpose: 'Asks receivers for TLS reports.' },
  ],
  failureReports: false,
  firstReportAt,
});

const flow: MailFlow = {
  from: '2026-02-27',
  to: '2026-03-28',
  retentionDays: 90,
  messages: 1210,
  dmarcPass: 1000,
  dmarcFail: 200,
  forwarded: 10,
  reports: 4,
  daily: [
    { day: '2026-03-01', pass: 600, fail: 100 },
    { day: '2026-03-02', pass: 400, fail: 100 },
  ],
  senders: [
    {
      id: 'service:google',
      name: 'Google Workspace',
      serviceId: 'google',
      category: 'authorised',
      addresses: [{ ip: '209.85.220.41', host: 'mail-sor-f41.google.com', messages: 900 }],
      addressCount: 3,
      messages: 1000,
      spfAligned: 1,
      dkimAligned: 0.8,
      dmarcPass: 0.9,
      dkimSelectors: ['google'],
      fixes: [{ kind: 'dkim', text: 'Turn on DKIM signing in the Google Admin console.', record: 'google._domainkey.example.com TXT "v=DKIM1; k=rsa; p=MIIB"' }],
    },
    { id: 'ip:203.0.113.9', name: '203.0.113.9', serviceId: null, category: 'unknown', addresses: [], addressCount: 1, messages: 200, spfAligned: 0, dkimAligned: 0, dmarcPass: 0, dkimSelectors: [], fixes: [] },
    { id: 'host:lists.example.org', name: 'lists.example.org', serviceId: null, category: 'forwarded', addresses: [], addressCount: 1, messages: 10, spfAligned: 0, dkimAligned: 1, dmarcPass: 1, dkimSelectors: [], fixes: [] },
  ],
  readiness: {
    currentPolicy: 'none',
    testing: false,
    nextPolicy: 'quarantine',
    legitimateMessages: 1000,
    affectedMessages: 100,
    affectedShare: 0.1,
    ready: false,
    blockers: ['Google Workspace fails DMARC for 10% of its mail.'],
    record: null,
  },
};

const tls: TlsReports = {
  from: '2026-02-27',
  to: '2026-03-28',
  reports: 1,
  successfulSessions: 90,
  failedSessions: 5,
  daily: [],
  failures: [{ resultType: 'certificate-expired', mxHost: 'mx1.example.com', sessions: 5 }],
  policies: [],
};

const received: ReceivedReports = {
  reports: [
    { id: 7, kind: 'aggregate', reporter: 'google.com', reporterEmail: null, reportId: 'r-42', begin: '2026-03-01T00:00:00Z', end: '2026-03-01T23:59:59Z', records: 3, messages: 1210, via: 'upload', receivedAt: '2026-03-02T08:00:00Z', sourceUrl: '/api/domains/5/dmarc-reports/7/source' },
  ],
  failureReports: [],
};

interface Call {
  method: string;
  url: string;
  contentType: string | null;
  body: unknown;
}

let calls: Call[] = [];
let routes: Record<string, (call: Call) => { status: number; body: unknown }> = {};

function json(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

beforeEach(() => {
  calls = [];
  routes = {};
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const call: Call = { method: init.method ?? 'GET', url, contentType: new Headers(init.headers).get('Content-Type'), body: init.body };
      calls.push(call);
      const path = url.split('?')[0]!;
      const route = routes[`${call.method} ${path}`];
      if (!route) return json(500, { message: `no route for ${call.method} ${path}` });
      const { status, body } = route(call);
      return json(status, body);
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

const viewer = (planType: string) => ({ planType, dateFormat: 'MMM dd, yyyy', timezone: 'UTC' });

function renderView(planType = 'basic') {
  return render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter>
        <MailFlowView domainId={5} domainName="example.com" viewer={viewer(planType)} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

function withData() {
  routes['GET /api/domains/5/report-addresses'] = () => ({ status: 200, body: addresses('2026-03-02T08:00:00Z') });
  routes['GET /api/domains/5/mail-flow'] = () => ({ status: 200, body: flow });
  routes['GET /api/domains/5/tls-reports'] = () => ({ status: 200, body: tls });
  routes['GET /api/domains/5/dmarc-reports'] = () => ({ status: 200, body: received });
}

describe('MailFlowView', () => {
  it('shows the free plan the upgrade message and asks the intake nothing', () => {
    renderView('free');
    expect(screen.getByRole('heading', { level: 2, name: 'Mail flow' })).toBeInTheDocument();
    expect(screen.getByTestId('mail-flow-upgrade')).toHaveTextContent(MAIL_FLOW_PLAN_MESSAGE);
    expect(screen.getByRole('link', { name: 'View Subscription Plans' })).toHaveAttribute('href', '/subscription');
    expect(calls).toHaveLength(0);
  });

  it('shows the upgrade message when the intake answers 403 (the plan changed meanwhile)', async () => {
    routes['GET /api/domains/5/report-addresses'] = () => ({ status: 403, body: { code: 'PLAN_LIMIT', message: MAIL_FLOW_PLAN_MESSAGE, requiresUpgrade: true } });
    renderView();
    expect(await screen.findByTestId('mail-flow-upgrade')).toHaveTextContent(MAIL_FLOW_PLAN_MESSAGE);
  });

  it('shows a failed read as an error', async () => {
    routes['GET /api/domains/5/report-addresses'] = () => ({ status: 500, body: { code: 'INTERNAL', message: 'Database unavailable' } });
    renderView();
    expect(await screen.findByRole('alert')).toHaveTextContent('Database unavailable');
  });

  it('before the first report: the records to publish with copy buttons, and an upload with its outcome', async () => {
    routes['GET /api/domains/5/report-addresses'] = () => ({ status: 200, body: addresses(null) });
    routes['POST /api/domains/5/dmarc-reports'] = () => ({ status: 202, body: { accepted: [{ kind: 'aggregate', reporter: 'google.com', reportId: 'r-42', records: 3 }], duplicates: [] } });
    const user = userEvent.setup();
    renderView();
    const setup = await screen.findByTestId('mail-flow-setup');
    expect(within(setup).getByRole('heading', { level: 3, name: 'Start receiving reports' })).toBeInTheDocument();
    expect(within(setup).getAllByTestId('record-to-publish')).toHaveLength(2);
    expect(within(setup).getByText('v=DMARC1; p=none; rua=mailto:abc123@reports.sendwell.test')).toBeInTheDocument();
    expect(within(setup).getByRole('button', { name: 'Copy _dmarc.example.com value' })).toBeInTheDocument();
    expect(within(setup).getByRole('button', { name: 'Copy dmarc address' })).toBeInTheDocument();
    // The window selector and the data cards wait for the first report.
    expect(screen.queryByRole('group', { name: 'Report window' })).toBeNull();

    const file = new File(['<feedback/>'], 'google.com!example.com!1.xml', { type: 'text/xml' });
    await user.upload(screen.getByLabelText('Upload a report'), file);
    expect(await screen.findByTestId('upload-outcome')).toHaveTextContent('DMARC report r-42 from google.com: 3 records stored.');
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.contentType).toBe('text/xml');
    expect(post.body).toBe(file);
    // The upload refreshes the addresses (firstReportAt) so the section can switch to its data view.
    await waitFor(() => expect(calls.filter((c) => c.url.endsWith('/report-addresses'))).toHaveLength(2));
  });

  it('shows a refused upload with the intake’s message', async () => {
    routes['GET /api/domains/5/report-addresses'] = () => ({ status: 200, body: addresses(null) });
    routes['POST /api/domains/5/dmarc-reports'] = () => ({ status: 400, body: { code: 'VALIDATION_FAILED', message: 'The file is not a DMARC or TLS report.' } });
    // `accept` only steers the picker; a user can still choose "All files".
    const user = userEvent.setup({ applyAccept: false });
    renderView();
    await user.upload(await screen.findByLabelText('Upload a report'), new File(['hello'], 'notes.txt'));
    expect(await screen.findByTestId('upload-error')).toHaveTextContent('The file is not a DMARC or TLS report.');
    expect(calls.find((c) => c.method === 'POST')!.contentType).toBe('application/octet-stream');
  });

  it('with reports: volume, senders with forwarded apart, fixes, readiness, TLS failures and the received reports', async () => {
    withData();
    const user = userEvent.setup();
    renderView();

    const volume = await screen.findByTestId('mail-flow-volume');
    await within(volume).findByTestId('total-messages');
    expect(within(volume).getByTestId('total-messages')).toHaveTextContent('1,210');
    expect(within(volume).getByTestId('total-fail')).toHaveTextContent('200');
    expect(within(volume).getByRole('img', { name: /1,000 passing DMARC, 200 failing/ })).toBeInTheDocument();

    const own = screen.getByTestId('senders-own');
    const rows = within(own).getAllByTestId('sender-row');
    expect(rows.map((r) => r.getAttribute('data-category'))).toEqual(['authorised', 'unknown']);
    expect(within(rows[0]!).getByTestId('sender-dmarc')).toHaveTextContent('90%');
    expect(within(rows[0]!).getByText('80%')).toBeInTheDocument();
    // The top addresses open under the row.
    await user.click(within(rows[0]!).getByRole('button', { name: '3 addresses of Google Workspace' }));
    expect(screen.getByText('209.85.220.41')).toBeInTheDocument();
    expect(screen.getByText('The busiest 1 of 3 addresses.')).toBeInTheDocument();

    const forwarded = screen.getByTestId('senders-forwarded');
    expect(within(forwarded).getByText('lists.example.org')).toBeInTheDocument();
    expect(within(own).queryByText('lists.example.org')).toBeNull();

    const fix = screen.getByTestId('sender-fix');
    expect(fix).toHaveTextContent('Turn on DKIM signing in the Google Admin console.');
    expect(within(fix).getByRole('button', { name: 'Copy google workspace dkim record' })).toBeInTheDocument();
    // Unknown sources get no fix: they are not the owner's to configure.
    expect(screen.getAllByTestId('sender-fix')).toHaveLength(1);

    const readiness = screen.getByTestId('policy-readiness');
    expect(within(readiness).getByTestId('readiness-current')).toHaveTextContent('p=none');
    expect(within(readiness).getByTestId('readiness-affected')).toHaveTextContent('100 (10%)');
    expect(within(readiness).getByTestId('readiness-status')).toHaveTextContent('Not ready for p=quarantine yet');
    expect(within(readiness).getByTestId('readiness-blockers')).toHaveTextContent('Google Workspace fails DMARC for 10% of its mail.');

    const tlsCard = screen.getByTestId('tls-failures');
    expect(within(tlsCard).getByText('certificate-expired')).toBeInTheDocument();
    expect(within(tlsCard).getByText('mx1.example.com')).toBeInTheDocument();

    const report = screen.getByTestId('received-report');
    expect(report).toHaveTextContent('google.com');
    expect(report).toHaveTextContent('Mar 01, 2026');
    expect(report).not.toHaveTextContent('–');
    expect(within(report).getByRole('link', { name: /View source/ })).toHaveAttribute('href', '/api/domains/5/dmarc-reports/7/source');
  });

  it('asks for the chosen window', async () => {
    withData();
    const user = userEvent.setup();
    renderView();
    await screen.findByTestId('total-messages');
    const group = screen.getByRole('group', { name: 'Report window' });
    expect(within(group).getByRole('button', { name: '30 days' })).toHaveAttribute('aria-pressed', 'true');
    await user.click(within(group).getByRole('button', { name: '7 days' }));
    await waitFor(() => expect(calls.some((c) => c.url.includes('/mail-flow?') && windowDays(c.url) === 7)).toBe(true));
    expect(calls.some((c) => c.url.includes('/tls-reports?') && windowDays(c.url) === 7)).toBe(true);
  });

  it('shows a ready domain the record for the next step', async () => {
    withData();
    routes['GET /api/domains/5/mail-flow'] = () => ({
      status: 200,
      body: { ...flow, readiness: { ...flow.readiness, affectedMessages: 1, affectedShare: 0.001, ready: true, blockers: [], record: 'v=DMARC1; p=quarantine; rua=mailto:abc123@reports.sendwell.test' } },
    });
    renderView();
    const readiness = await screen.findByTestId('policy-readiness');
    expect(within(readiness).getByTestId('readiness-status')).toHaveTextContent('Ready for p=quarantine');
    expect(within(readiness).getByText('v=DMARC1; p=quarantine; rua=mailto:abc123@reports.sendwell.test')).toBeInTheDocument();
    expect(within(readiness).getByRole('button', { name: 'Copy next dmarc record' })).toBeInTheDocument();
  });

  it('saves the failure-report setting', async () => {
    withData();
    routes['PUT /api/domains/5/mail-flow/settings'] = (call) => ({ status: 200, body: JSON.parse(String(call.body)) });
    const user = userEvent.setup();
    renderView();
    const toggle = await screen.findByRole('switch', { name: 'Store failure reports' });
    expect(toggle).toHaveAttribute('aria-checked', 'false');
    await user.click(toggle);
    await waitFor(() => expect(toggle).toHaveAttribute('aria-checked', 'true'));
    expect(calls.find((c) => c.method === 'PUT')!.body).toBe(JSON.stringify({ failureReports: true }));
  });
});

function windowDays(url: string): number {
  const q = new URL(url, 'http://x').searchParams;
  return (Date.parse(q.get('to')!) - Date.parse(q.get('from')!)) / 86_400_000 + 1;
}
