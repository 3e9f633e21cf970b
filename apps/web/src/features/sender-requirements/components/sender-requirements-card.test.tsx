import {
  SENDER_REQUIREMENTS,
  SENDER_REQUIREMENTS_PLAN_MESSAGE,
  senderRequirementsSchema,
  type RequirementEvidence,
  type SenderRequirementId,
  type SenderRequirements,
  type SenderRequirementStatus,
} from '@sendwell/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SenderRequirementsView } from './sender-requirements-card';

const URL = '/api/domains/5/sender-requirements';

function requirement(id: SenderRequirementId, status: SenderRequirementStatus, evidence: RequirementEvidence[] = [], fix: string | null = null) {
  const { title, description, providers, links } = SENDER_REQUIREMENTS[id];
  return { id, title, description, providers, status, evidence, fix, links };
}

const scanned = '2026-03-20T09:00:00.000Z';
const tested = '2026-03-21T14:30:00.000Z';

/** A verdict as the intake answers it, parsed with the contracts' schema so the fixture cannot drift. */
function verdict(overrides: Partial<SenderRequirements> = {}): SenderRequirements {
  return senderRequirementsSchema.parse({
    domainId: 5,
    domain: 'example.com',
    evaluatedAt: tested,
    sources: {
      dns: { state: 'used', observedAt: scanned, summary: 'The latest scan.' },
      mail_flow: { state: 'none', summary: 'No DMARC report received yet.' },
      mail_test: { state: 'used', observedAt: tested, summary: 'The test message of Mar 21.' },
    },
    requirements: [
      requirement('spf', 'met', [{ source: 'dns', status: 'met', detail: 'SPF record v=spf1 ip4:192.0.2.1 -all.', observedAt: scanned }]),
      requirement('dkim', 'met', [
        { source: 'dns', status: 'met', detail: 'DKIM key at s1._domainkey.', observedAt: scanned },
        { source: 'mail_test', status: 'met', detail: 'Signature d=example.com s=s1 passes.', observedAt: tested },
      ]),
      requirement('dmarc', 'met', [{ source: 'dns', status: 'met', detail: 'DMARC record p=none.', observedAt: scanned }]),
      requirement('alignment', 'met', [{ source: 'mail_test', status: 'met', detail: 'DMARC passes: DKIM aligned.', observedAt: tested }]),
      requirement('reverse_dns', 'unknown', [], 'Send a test message from your mail system so its address can be checked.'),
      requirement('tls', 'met', [{ source: 'mail_test', status: 'met', detail: 'Received over TLSv1.3.', observedAt: tested }]),
      requirement(
        'one_click_unsubscribe',
        'unmet',
        [{ source: 'mail_test', status: 'unmet', detail: 'List-Unsubscribe-Post is missing.', observedAt: tested }],
        'Add List-Unsubscribe-Post: List-Unsubscribe=One-Click beside an https List-Unsubscribe address.',
      ),
      requirement('message_format', 'met', [{ source: 'mail_test', status: 'met', detail: 'One From, a Date and a Message-ID.', observedAt: tested }]),
      requirement('complaint_rate', 'not_measurable'),
    ],
    counts: { met: 6, unmet: 1, unknown: 1, not_measurable: 1 },
    ...overrides,
  });
}

let calls: string[] = [];
let answer: () => { status: number; body: unknown };

beforeEach(() => {
  calls = [];
  answer = () => ({ status: 200, body: verdict() });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      calls.push(url);
      if (url !== URL) return new Response(JSON.stringify({ message: `no route for ${url}` }), { status: 500 });
      const { status, body } = answer();
      return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

function renderView(planType = 'basic') {
  return render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter>
        <SenderRequirementsView domainId={5} viewer={{ planType, dateFormat: 'MMM dd, yyyy', timezone: 'UTC' }} mailFlowAnchor="mail-flow" />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const row = (id: SenderRequirementId) => screen.getAllByTestId('requirement').find((r) => r.getAttribute('data-id') === id)!;
const source = (name: string) => screen.getAllByTestId('evidence-source').find((s) => s.getAttribute('data-source') === name)!;

describe('SenderRequirementsView', () => {
  it('shows the counts, and every requirement with its providers and its status in words', async () => {
    renderView();
    expect(screen.getByRole('heading', { level: 2, name: 'Sender requirements' })).toBeInTheDocument();
    expect(screen.getByText(/What Gmail, Yahoo and Microsoft require of bulk senders/)).toBeInTheDocument();
    const counts = await screen.findByTestId('sender-requirements-counts');
    expect(within(counts).getByTestId('sender-requirements-met')).toHaveTextContent(/^6 of 9 met$/);
    expect(counts).toHaveTextContent('1 unmet · 1 unknown · 1 only the providers can see');
    expect(screen.getAllByTestId('requirement')).toHaveLength(9);
    expect(calls).toEqual([URL]);

    expect(within(row('spf')).getByTestId('requirement-status')).toHaveTextContent('Status: Met');
    expect(within(row('one_click_unsubscribe')).getByTestId('requirement-status')).toHaveTextContent('Status: Unmet');
    expect(within(row('reverse_dns')).getByTestId('requirement-status')).toHaveTextContent('Status: Unknown');
    expect(within(row('complaint_rate')).getByTestId('requirement-status')).toHaveTextContent('Status: Not measurable');
    expect(within(row('tls')).getByRole('heading', { level: 3, name: 'TLS' })).toBeInTheDocument();
    const providers = within(row('reverse_dns')).getByRole('list', { name: 'Reverse DNS is required by' });
    expect(within(providers).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Gmail', 'Yahoo']);
  });

  it('expands a requirement’s evidence: the source’s label, what was seen and when', async () => {
    const user = userEvent.setup();
    renderView();
    await screen.findByTestId('sender-requirements-counts');
    const dkim = row('dkim');
    expect(within(dkim).queryByTestId('evidence')).toBeNull();
    const toggle = within(dkim).getByRole('button', { name: 'Show evidence (2) for DKIM' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const items = within(dkim).getAllByTestId('evidence');
    expect(items.map((i) => i.getAttribute('data-source'))).toEqual(['dns', 'mail_test']);
    expect(items[0]).toHaveTextContent('DNS scan');
    expect(items[0]).toHaveTextContent('DKIM key at s1._domainkey.');
    expect(items[0]).toHaveTextContent('Mar 20, 2026');
    expect(items[1]).toHaveTextContent('Test message');
    expect(items[1]).toHaveTextContent('Signature d=example.com s=s1 passes.');
    expect(items[1]).toHaveTextContent('Mar 21, 2026');
    await user.click(within(dkim).getByRole('button', { name: 'Hide evidence (2) for DKIM' }));
    expect(within(dkim).queryByTestId('evidence')).toBeNull();
    // Without evidence there is nothing to expand.
    expect(within(row('reverse_dns')).queryByRole('button')).toBeNull();
    expect(within(row('reverse_dns')).getByText('No evidence yet.')).toBeInTheDocument();
  });

  it('gives the fix for unmet and unknown requirements only', async () => {
    renderView();
    await screen.findByTestId('sender-requirements-counts');
    expect(within(row('one_click_unsubscribe')).getByTestId('requirement-fix')).toHaveTextContent('How to fix: Add List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    expect(within(row('reverse_dns')).getByTestId('requirement-fix')).toHaveTextContent('How to find out: Send a test message from your mail system');
    expect(within(row('spf')).queryByTestId('requirement-fix')).toBeNull();
    expect(screen.getAllByTestId('requirement-fix')).toHaveLength(2);
  });

  it('says only the providers see the complaint rate and links their three tools in a new tab', async () => {
    renderView();
    await screen.findByTestId('sender-requirements-counts');
    const complaints = row('complaint_rate');
    const tools = within(complaints).getByTestId('requirement-links');
    expect(tools).toHaveTextContent('Only the mailbox providers see it. Check yours at:');
    const links = within(tools).getAllByRole('link');
    expect(links.map((l) => l.getAttribute('href'))).toEqual(['https://postmaster.google.com/', 'https://senders.yahooinc.com/', 'https://sendersupport.olc.protection.outlook.com/snds/']);
    for (const link of links) {
      expect(link).toHaveAttribute('target', '_blank');
      expect(link.getAttribute('rel')).toMatch(/\bnoopener\b/);
    }
    expect(within(complaints).getByRole('link', { name: /Google Postmaster Tools/ })).toBeInTheDocument();
    expect(within(row('one_click_unsubscribe')).getByRole('link', { name: /RFC 8058/ })).toHaveAttribute('href', 'https://www.rfc-editor.org/rfc/rfc8058');
  });

  it('says what each source covered, and what to do about one that gave nothing', async () => {
    renderView();
    await screen.findByTestId('sender-requirements-counts');
    expect(source('dns')).toHaveAttribute('data-state', 'used');
    expect(source('dns')).toHaveTextContent('DNS scan: The latest scan.');
    expect(source('mail_test')).toHaveTextContent('Test message: The test message of Mar 21.');
    const flow = source('mail_flow');
    expect(flow).toHaveAttribute('data-state', 'none');
    expect(flow).toHaveTextContent('No DMARC report received yet.');
    expect(within(flow).getByRole('link', { name: 'Publish the report address in Mail flow' })).toHaveAttribute('href', '#mail-flow');
  });

  it('points to Inbox Testing when no test message is there, and to the plans when the plan lacks them', async () => {
    answer = () => ({
      status: 200,
      body: verdict({
        sources: {
          dns: { state: 'none', summary: 'No completed scan.' },
          mail_flow: { state: 'used', observedAt: scanned, summary: '3 reports over 30 days.' },
          mail_test: { state: 'none', summary: 'No test message in the last 30 days.' },
        },
      }),
    });
    const { unmount } = renderView('standard');
    await screen.findByTestId('sender-requirements-counts');
    expect(source('dns')).toHaveTextContent('DNS scan: No completed scan. Run one with Scan now at the top of this page.');
    expect(within(source('mail_test')).getByRole('link', { name: 'Send a test message from Inbox Testing' })).toHaveAttribute('href', '/inbox-placement');
    unmount();

    answer = () => ({ status: 200, body: verdict({ sources: { ...verdict().sources, mail_test: { state: 'plan', summary: 'Test messages come with the Standard plan.' } } }) });
    renderView('basic');
    await screen.findByTestId('sender-requirements-counts');
    const test = source('mail_test');
    expect(test).toHaveAttribute('data-state', 'plan');
    expect(test).toHaveTextContent('Test message: Test messages come with the Standard plan.');
    expect(within(test).getByRole('link', { name: 'View Subscription Plans' })).toHaveAttribute('href', '/subscription');
  });

  it('shows a skeleton while loading, then a failed read as an error', async () => {
    answer = () => ({ status: 500, body: { code: 'INTERNAL', message: 'Database unavailable', requestId: 'r1' } });
    renderView();
    expect(screen.getByTestId('sender-requirements-loading')).toBeInTheDocument();
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load the sender requirements');
    expect(screen.getByRole('alert')).toHaveTextContent('Database unavailable');
    expect(screen.queryByTestId('sender-requirements-loading')).toBeNull();
    expect(screen.queryByTestId('requirement')).toBeNull();
    expect(screen.queryByTestId('sender-requirements-counts')).toBeNull();
  });

  it('shows the plan message on a 403, and asks nothing on the free plan', async () => {
    answer = () => ({ status: 403, body: { code: 'PLAN_LIMIT', message: SENDER_REQUIREMENTS_PLAN_MESSAGE, requestId: 'r1', requiresUpgrade: true } });
    const { unmount } = renderView();
    expect(await screen.findByTestId('sender-requirements-upgrade')).toHaveTextContent(SENDER_REQUIREMENTS_PLAN_MESSAGE);
    unmount();
    calls = [];
    renderView('free');
    expect(screen.getByTestId('sender-requirements-upgrade')).toHaveTextContent(SENDER_REQUIREMENTS_PLAN_MESSAGE);
    expect(screen.getByRole('link', { name: 'View Subscription Plans' })).toHaveAttribute('href', '/subscription');
    expect(calls).toHaveLength(0);
  });
});
