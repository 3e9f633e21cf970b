import type { User } from '@sendwell/contracts';
import { describe, expect, it } from 'vitest';
import { signupBannerTone } from './signup-banner';

const signup = (patch: Partial<User>): User =>
  ({ planType: 'free', quickCheckDomain: 'example.com', showUpgradeNotification: true, signupSource: 'quick-check', ...patch }) as User;

describe('signupBannerTone', () => {
  it('is green after a quick check and blue from the landing page', () => {
    expect(signupBannerTone(signup({ signupSource: 'quick-check' }))).toBe('green');
    expect(signupBannerTone(signup({ signupSource: 'landing_page' }))).toBe('blue');
  });

  it('shows nothing for a direct sign-up, without a domain, once dismissed, or on a paid plan', () => {
    expect(signupBannerTone(signup({ signupSource: 'direct' }))).toBeNull();
    expect(signupBannerTone(signup({ quickCheckDomain: null }))).toBeNull();
    expect(signupBannerTone(signup({ showUpgradeNotification: false }))).toBeNull();
    expect(signupBannerTone(signup({ planType: 'basic' }))).toBeNull();
  });
});
