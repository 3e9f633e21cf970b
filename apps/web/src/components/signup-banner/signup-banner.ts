import type { User } from '@sendwell/contracts';

export type SignupBannerTone = 'green' | 'blue';

/**
 * Part 1 §2: a free-plan account that signed up with a domain gets a banner naming it: green after a
 * quick check, blue from the landing page. The banner lasts until the user dismisses it
 * (`showUpgradeNotification`, cleared by POST /api/user/dismiss-upgrade-notification) or upgrades.
 */
export function signupBannerTone(user: User): SignupBannerTone | null {
  if (user.planType !== 'free' || !user.quickCheckDomain || !user.showUpgradeNotification) return null;
  if (user.signupSource === 'quick-check') return 'green';
  if (user.signupSource === 'landing_page') return 'blue';
  return null;
}
