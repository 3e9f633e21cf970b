import { FREE_DOMAIN_LIMIT_MESSAGE, MANUAL_SCAN_COOLDOWN_MS } from '@sendwell/contracts';
import { describe, expect, it } from 'vitest';
import { addDomainDecision, cooldownRefusal, restoreDecision } from './domain-rules.js';

describe('addDomainDecision', () => {
  it('allows up to the limit, counting restorable deletions in `counted`', () => {
    expect(addDomainDecision('free', 0)).toEqual({ allowed: true });
    expect(addDomainDecision('basic', 1)).toEqual({ allowed: true });
    expect(addDomainDecision('advanced', 9)).toEqual({ allowed: true });
  });

  it('refuses free and one-time over 1 with the upgrade flag and the free text', () => {
    for (const plan of ['free', 'onetime']) {
      const decision = addDomainDecision(plan, 1);
      expect(decision).toEqual({ allowed: false, message: FREE_DOMAIN_LIMIT_MESSAGE, requiresUpgrade: true });
      expect(decision.allowed === false && decision.message).toContain('limited to 1 domain');
    }
  });

  it('refuses paid plans over their limit naming it, without the free-plan flag', () => {
    const decision = addDomainDecision('standard', 5);
    expect(decision).toMatchObject({ allowed: false, requiresUpgrade: false });
    expect(decision.allowed === false && decision.message).toContain('limited to 5 domains');
  });

  it('refuses an unknown plan (limit 0)', () => {
    expect(addDomainDecision('mystery', 0).allowed).toBe(false);
  });
});

describe('restoreDecision', () => {
  it('looks at active domains only', () => {
    expect(restoreDecision('basic', 1)).toEqual({ allowed: true });
    expect(restoreDecision('free', 1)).toMatchObject({ allowed: false, requiresUpgrade: true });
  });
});

describe('cooldownRefusal', () => {
  it('rounds up to whole seconds and minutes', () => {
    expect(cooldownRefusal(61_500)).toEqual({ retryAfterSeconds: 62, message: 'A domain can be scanned manually once every 5 minutes. Please try again in 2 minutes.' });
    expect(cooldownRefusal(1)).toMatchObject({ retryAfterSeconds: 1, message: expect.stringContaining('1 minute.') });
    expect(cooldownRefusal(MANUAL_SCAN_COOLDOWN_MS * 3).retryAfterSeconds).toBe(300);
  });
});
