import type { MailTestAnalysis } from '@sendwell/contracts';

/** An analysis as the scanner stores it in `results` (the shape is the contract; the values are one plausible message's). */
export function analysisFixture(): MailTestAnalysis {
  const spf = { domain: 'sender.example', result: 'pass' as const, explanation: 'The sending address is in the SPF record.' };
  return {
    connection: {
      clientAddress: '127.0.0.1',
      reverseDns: { names: ['mx.sender.example'], forwardConfirmed: true, confirmedName: 'mx.sender.example' },
      helo: 'mx.sender.example',
      tls: { used: false, protocol: null, cipher: null },
      blocklists: [{ list: 'zen.spamhaus.org', listed: false, answer: null }],
    },
    authentication: {
      spf: { mailFrom: spf, helo: spf },
      dkim: [],
      dmarc: { domain: 'sender.example', record: 'v=DMARC1; p=none', policy: 'none', result: 'pass', spfAligned: true, dkimAligned: false },
      arc: { result: 'none', instances: 0, reason: null },
      bimi: { result: 'skipped', location: null, authority: null, reason: 'DMARC policy is none' },
    },
    headers: {
      from: 'Alice <alice@sender.example>',
      fromDomain: 'sender.example',
      subject: 'Hello',
      date: 'Mon, 1 Dec 2025 10:00:00 +0000',
      messageId: '<m1@sender.example>',
      replyTo: null,
      listUnsubscribe: { mailto: null, https: null, oneClick: false },
      precedence: null,
      feedbackId: null,
    },
    content: { sizeBytes: 300, textPart: true, htmlPart: false, links: [], images: 0, htmlWords: 0 },
    findings: [
      {
        code: 'NO_DKIM',
        group: 'authentication',
        severity: 'warning',
        title: 'The message is not DKIM-signed',
        explanation: 'Receivers trust signed mail more.',
        fix: 'Sign outgoing mail with DKIM.',
        reference: 'RFC 6376',
        points: 1.5,
      },
    ],
    score: { value: 8.5, deductions: [{ code: 'NO_DKIM', points: 1.5 }] },
  };
}
