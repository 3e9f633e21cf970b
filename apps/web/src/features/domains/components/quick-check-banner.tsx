import type { User } from '@sendwell/contracts';
import { SearchCheck } from 'lucide-react';
import { signupBannerTone } from '@/components/signup-banner/signup-banner';
import { SignupBannerFrame } from '@/components/signup-banner/signup-banner-frame';
import { paths } from '@/config/paths';

/** Part 1 §2 "Domains page": for a quick-check sign-up, the banner that leads to /subscription-comparison. */
export function QuickCheckBanner({ user }: { user: User }) {
  if (signupBannerTone(user) !== 'green' || !user.quickCheckDomain) return null;
  return (
    <SignupBannerFrame
      tone="green"
      label="Your quick check"
      testId="quick-check-banner"
      icon={SearchCheck}
      link={{ to: paths.subscriptionComparison, text: 'Compare plans' }}
    >
      <p>
        <strong className="break-all">{user.quickCheckDomain}</strong> from your quick check is in your account. Compare plans to see what
        continuous monitoring, alerts and reports add.
      </p>
    </SignupBannerFrame>
  );
}
