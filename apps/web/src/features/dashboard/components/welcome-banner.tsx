import type { User } from '@sendwell/contracts';
import { Sparkles } from 'lucide-react';
import { Link } from 'react-router';
import { DismissBannerButton } from '@/components/signup-banner/dismiss-banner-button';
import { signupBannerTone } from '@/components/signup-banner/signup-banner';
import { buttonClass } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { cn } from '@/lib/utils';

/**
 * Part 1 §2: green for a quick-check sign-up, blue for a landing-page sign-up, each on the free plan
 * with the domain that was added for them, naming it and linking to /subscription; dismissable.
 */
export function WelcomeBanner({ user }: { user: User }) {
  const tone = signupBannerTone(user);
  const domain = user.quickCheckDomain;
  if (!tone || !domain) return null;
  return (
    <section
      aria-label="Welcome"
      data-testid={`welcome-banner-${tone}`}
      className={cn(
        'flex flex-col gap-3 rounded-xl border p-4 sm:flex-row sm:items-center sm:justify-between',
        tone === 'green'
          ? 'border-green-600/30 bg-green-50 text-green-950 dark:bg-green-950/40 dark:text-green-50'
          : 'border-blue-600/30 bg-blue-50 text-blue-950 dark:bg-blue-950/40 dark:text-blue-50',
      )}
    >
      <div className="flex items-start gap-3">
        <Sparkles className="mt-0.5 h-5 w-5 shrink-0" aria-hidden="true" />
        <div className="space-y-1 text-sm">
          <p className="font-semibold">
            {tone === 'green' ? 'Thanks for running a quick check!' : 'Welcome to Sendwell!'}
          </p>
          <p>
            We added <strong className="break-all">{domain}</strong> to your account
            {tone === 'green' ? ' from your quick check' : ''} and started its first scan. Upgrade to monitor it continuously and add more domains.
          </p>
        </div>
      </div>
      <div className="flex shrink-0 items-center gap-2">
        <Link to={paths.subscription} className={buttonClass('default', 'sm')}>
          View plans
        </Link>
        <DismissBannerButton />
      </div>
    </section>
  );
}
