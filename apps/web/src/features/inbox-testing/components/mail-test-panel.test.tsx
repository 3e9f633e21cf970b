import type { MailTest, MailTestAnalysis } from '@sendwell/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EXPIRED_TEXT, RECEIVED_TEXT, WAITING_TEXT } from '../lib/mail-test-display';
import { MailTestPanel } from './mail-test-panel';

vi.mock('@/lib/auth/auth-provider', () => ({ useUser: () => ({ planType: 'standard', dateFormat: 'MMM dd, yyyy', timezone: 'UTC' }) }));

const waiting: MailTest = {
  id: 1,
  address: 'test-abcdefghijklmnopqrstuvwx@reports.sendwell.test',
  status: 'waiting',
  createdAt: '2026-11-27T05:00:00.000Z',
  expiresAt: '2026-11-27T06:00:00.000Z',
  receivedAt: null,
  fromAddress: null,
  subject: null,
  score: null,
  session: null,
  analysis: null,
  error: null,
};

const analysis: MailTestAnalysis = {
  connection: {
    clientAddress: '203.0.113.5',
    reverseDns: { names: ['mail.shop.test'], forwardConfirmed: true, confirmedName: 'mail.shop.test' },
    helo: 'mail.shop.test',
    tls: { used: true, protocol: 'TLSv1.3', cipher: 'TLS_AES_256_GCM_SHA384' },
    blocklists: [{ list: 'bl.fixture.test', listed: false, answer: null }],
  },
  authentication: {
    spf: { mailFrom: { domain: 'shop.test', result: 'pass', explanation: '203.0.113.5 is allowed' }, helo: { domain: 'mail.shop.test', result: 'none', explanation: 'No SPF record' } },
    dkim: [{ domain: 'shop.test', selector: 's1', algorithm: 'rsa-sha256', keyBits: 2048, bodyLength: null, signedHeaders: ['from', 'subject'], result: 'pass', reason: null, aligned: true }],
    dmarc: { domain: 'shop.test', record: 'v=DMARC1; p=reject', policy: 'reject', result: 'pass', spfAligned: true, dkimAligned: true },
    arc: { result: 'none', instances: 0, reason: null },
    bimi: { result: 'none', location: null, authority: null, reason: null },
  },
  headers: {
    from: 'news@shop.test',
    fromDomain: 'shop.test',
    subject: 'Spring sale',
    date: 'Fri, 27 Nov 2026 05:10:00 +0000',
    messageId: '<1@shop.test>',
    replyTo: null,
    listUnsubscribe: { mailto: null, https: null, oneClick: false },
    precedence: null,
    feedbackId: null,
  },
  content: { sizeBytes: 2048, textPart: true, htmlPart: false, links: [], images: 0, htmlWords: 0 },
  findings: [
    { code: 'NO_LIST_UNSUBSCRIBE', group: 'headers', severity: 'warning', title: 'No List-Unsubscribe', explanation: 'Bulk senders must offer one.', fix: 'Add List-Unsubscribe.', reference: 'RFC 8058', points: 2.5 },
  ],
  score: { value: 7.5, deductions: [{ code: 'NO_LIST_UNSUBSCRIBE', points: 2.5 }] },
};
const done: MailTest = { ...waiting, status: 'done', receivedAt: '2026-11-27T05:10:00.000Z', fromAddress: 'news@shop.test', subject: 'Spring sale', score: 7.5, analysis };

/** A stand-in for the browser's EventSource: the test emits the server's events itself. */
class FakeEventSource {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  static instances: FakeEventSource[] = [];
  readyState = FakeEventSource.CONNECTING;
  private listeners = new Map<string, ((event: Event) => void)[]>();
  constructor(readonly url: string) {
    FakeEventSource.instances.push(this);
  }
  addEventListener(type: string, listener: (event: Event) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  close() {
    this.readyState = FakeEventSource.CLOSED;
  }
  emit(type: string, data?: unknown) {
    const event = data === undefined ? new Event(type) : new MessageEvent(type, { data: JSON.stringify(data) });
    act(() => this.listeners.get(type)?.forEach((l) => l(event)));
  }
}

let answer: MailTest;
let reads = 0;

beforeEach(() => {
  answer = waiting;
  reads = 0;
  FakeEventSource.instances = [];
  vi.stubGlobal('EventSource', FakeEventSource);
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      if (url !== '/api/mail-tests/1') return new Response('{}', { status: 404 });
      reads += 1;
      return new Response(JSON.stringify(answer), { status: 200, headers: { 'Content-Type': 'application/json' } });
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

function renderPanel() {
  return render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter>
        <MailTestPanel id={1} onCreated={() => undefined} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('MailTestPanel', () => {
  it('shows the address and waits, then follows the events stream to received and to the score', async () => {
    renderPanel();
    expect(await screen.findByTestId('mail-test-waiting')).toHaveTextContent(WAITING_TEXT);
    expect(screen.getByTestId('value-address')).toHaveTextContent(waiting.address);
    expect(screen.getByRole('button', { name: 'Copy address' })).toBeInTheDocument();
    const source = FakeEventSource.instances[0]!;
    expect(source.url).toBe('/api/mail-tests/1/events');

    source.emit('status', { ...waiting, status: 'received', receivedAt: done.receivedAt });
    expect(await screen.findByTestId('mail-test-received')).toHaveTextContent(RECEIVED_TEXT);
    expect(screen.queryByTestId('mail-test-waiting')).not.toBeInTheDocument();

    source.emit('status', done);
    expect(await screen.findByTestId('mail-test-score-value')).toHaveTextContent('7.5/10');
    expect(screen.getByTestId('mail-test-score-arithmetic')).toHaveTextContent('10 − 2.5 (No List-Unsubscribe) = 7.5');
    expect(screen.getByTestId('mail-test-group-headers')).toHaveTextContent('Fix: Add List-Unsubscribe.');
    expect(screen.getByTestId('details-authentication')).toHaveTextContent('d=shop.test s=s1');
    expect(source.readyState).toBe(FakeEventSource.CLOSED);
    expect(reads).toBe(1);
  });

  it('polls the test when its stream cannot be opened', async () => {
    renderPanel();
    expect(await screen.findByTestId('mail-test-waiting')).toHaveTextContent(WAITING_TEXT);
    const source = FakeEventSource.instances[0]!;
    source.readyState = FakeEventSource.CLOSED;
    answer = done;
    source.emit('error');
    expect(await screen.findByTestId('mail-test-score-value', {}, { timeout: 5_000 })).toHaveTextContent('7.5/10');
    expect(screen.getByTestId('mail-test')).toHaveAttribute('data-following', 'polling');
  });

  it('says why a test failed, and that an expired one received nothing, offering a new test', async () => {
    answer = { ...waiting, status: 'failed', error: 'The message was larger than 10 MB.' };
    const { unmount } = renderPanel();
    expect(await screen.findByTestId('mail-test-error')).toHaveTextContent('The message was larger than 10 MB.');
    expect(FakeEventSource.instances).toHaveLength(0);
    unmount();

    answer = { ...waiting, status: 'expired' };
    renderPanel();
    await screen.findByText(EXPIRED_TEXT, { exact: false });
    expect(screen.getByRole('button', { name: 'New test' })).toBeInTheDocument();
    await waitFor(() => expect(FakeEventSource.instances).toHaveLength(0));
  });
});
