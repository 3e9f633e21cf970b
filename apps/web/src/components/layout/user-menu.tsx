import type { User } from '@sendwell/contracts';
import { forwardRef, type ButtonHTMLAttributes } from 'react';
import { OnDemand } from '@/components/ui/on-demand';
import { avatarInitials } from '@/lib/display';

const loadMenu = () => import('./user-menu-content');

const Avatar = forwardRef<HTMLButtonElement, ButtonHTMLAttributes<HTMLButtonElement> & { initials: string }>(function Avatar({ initials, ...props }, ref) {
  return (
    <button
      ref={ref}
      type="button"
      // The visible initials are part of the name, as WCAG 2.5.3 (label in name) asks.
      aria-label={`${initials} Account menu`}
      className="flex h-9 w-9 items-center justify-center rounded-full bg-primary text-sm font-semibold text-primary-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
      {...props}
    >
      {initials}
    </button>
  );
});

/** Avatar menu: full name only when both parts exist, the email, Settings, Subscription, Log out. Its code loads on demand. */
export function UserMenu({ user, onLogout }: { user: User; onLogout: () => void }) {
  const initials = avatarInitials(user);
  return (
    <OnDemand
      load={loadMenu}
      trigger={(props) => <Avatar initials={initials} {...props} />}
      render={({ UserMenuContent }, start) => (
        <UserMenuContent user={user} onLogout={onLogout} trigger={<Avatar initials={initials} autoFocus={start.focus} />} defaultOpen={start.open} />
      )}
    />
  );
}
