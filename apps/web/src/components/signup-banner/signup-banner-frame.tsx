import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { buttonClass } from '@/components/ui/button';
import { cn } from '@/lib/utils';
import { DismissBannerButton } from './dismiss-banner-button';
import type { SignupBannerTone } from './signup-banner';

const toneClass: Record<SignupBannerTone, string> = {
  green: 'border-green-600/30 bg-green-50 text-green-950 dark:bg-green-950/40 dark:text-green-50',
  blue: 'border-blue-600/30 bg-blue-50 text-blue-950 dark:bg-blue-950/40 dark:text-blue-50',
};

/** The layout every sign-up banner shares: icon, message, one link and the dismiss button. */
export function SignupBannerFrame({
  tone,
  label,
  testId,
  icon: Icon,
  link,
  children,
}: {
  tone: SignupBannerTone;
  label: string;
  testId: string;
  icon: LucideIcon;
  link: { to: string; text: string };
  children: ReactNode;
}) {
  return (
    <section
      aria-label={label}
      data-testid={testId}
      className={cn('flex flex-col gap-3 rounded-xl border p-4 sm:flex-row sm:items-center sm:justify-between', toneClass[tone])}
    >
      <div className="flex items-start gap-3 text-sm">
        <Icon className="mt-0.5 h-5 w-5 shrink-0" aria-hidden="true" />
        <div className="space-y-1">{children}</div>
      </div>
      <div className="flex shrink-0 items-center gap-2">
        <Link to={link.to} className={buttonClass('default', 'sm')}>
          {link.text}
        </Link>
        <DismissBannerButton />
      </div>
    </section>
  );
}
