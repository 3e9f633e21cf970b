import type { User } from '@sendwell/contracts';
import { SearchCheck } from 'lucide-react';
import { Link } from 'react-router';
import { DismissBannerButton } from '@/components/signup-banner/dismiss-banner-button';
import { signupBannerTone } from '@/components/signup-banner/signup-banner';
import { buttonClass } from '@/components/ui/button';
import { paths } from '@/config/paths';

/** Part 1 §2 "Domains page": for a quick-check sign-up, the banner that leads to /subscription-comparison. */
export function QuickCheckBanner({ user }: { user: User }) {
  if (signupBannerTone(user) !== 'green' || !user.quickCheckDomain) return null;
  return (
    <section
      aria-label="Your quick check"
      data-testid="quick-check-banner"
      className="flex flex-col gap-3 rounded-xl border border-green-600/30 bg-green-50 p-4 text-green-950 sm:flex-row sm:items-center sm:justify-between dark:bg-green-950/40 dark:text-green-50"
    >
      <div className="flex items-start gap-3 text-sm">
        <SearchCheck className="mt-0.5 h-5 w-5 shrink-0" aria-hidden="true" />
        <p>
          <strong className="break-all">{user.quickCheckDomain}</strong> from your quick check is in your account. Compare plans to see what
          continuous monitoring, alerts and reports add.
        </p>
      </div>
      <div className="flex shrink-0 items-center gap-2">
        <Link to={paths.subscriptionComparison} className={buttonClass('default', 'sm')}>
          Compare plans
        </Link>
        <DismissBannerButton />
      </div>
    </section>
  );
}
