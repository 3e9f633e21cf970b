import { describe, expect, it } from 'vitest';
import { classifyRcpt } from './email-verifier.js';

describe('classifyRcpt', () => {
  it.each([
    [250, '2.1.5 Ok', 'accepted'],
    [251, 'User not local; will forward', 'accepted'],
    [550, '5.1.1 <x@example.com>: Recipient address rejected: User unknown', 'not_found'],
    [551, 'User not local', 'not_found'],
    [553, 'Mailbox name not allowed', 'not_found'],
    [552, 'Requested mail action aborted: exceeded storage allocation', 'full'],
    [452, '4.2.2 Mailbox full', 'full'],
    [550, '5.2.2 Mailbox full', 'full'],
    [550, '5.7.1 Service unavailable; client host blocked', 'refused'],
    [554, 'Transaction failed', 'refused'],
    [450, '4.2.0 Greylisted, try again later', 'temporary'],
    [451, 'Temporary local problem', 'temporary'],
  ] as const)('%d %s → %s', (code, text, expected) => {
    expect(classifyRcpt({ code, text })).toBe(expected);
  });
});
