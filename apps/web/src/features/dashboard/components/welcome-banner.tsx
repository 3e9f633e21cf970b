import type { User } from '@sendwell/contracts';
import { Sparkles } from 'lucide-react';
import { signupBannerTone } from '@/components/signup-banner/signup-banner';
import { SignupBannerFrame } from '@/components/signup-banner/signup-banner-frame';
import { paths } from '@/config/paths';

/**
 * Part 1 §2: green for a quick-check sign-up, blue for a landing-page sign-up, each on the free plan
 * with the domain that was added for them, naming it and linking to /subscription; dismissable.
 */
export function WelcomeBanner({ user }: { user: User }) {
  const tone = signupBannerTone(user);
  const domain = user.quickCheckDomain;
  if (!tone || !domain) return null;
  return (
    <SignupBannerFrame tone={tone} label="Welcome" testId={`welcome-banner-${tone}`} icon={Sparkles} link={{ to: paths.subscription, text: 'View plans' }}>
      <p className="font-semibold">{tone === 'green' ? 'Thanks for running a quick check!' : 'Welcome to Sendwell!'}</p>
      <p>
        We added <strong className="break-all">{domain}</strong> to your account
        {tone === 'green' ? ' from your quick check' : ''} and started its first scan. Upgrade to monitor it continuously and add more domains.
      </p>
    </SignupBannerFrame>
  );
}
