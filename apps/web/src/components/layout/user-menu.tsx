import { type User } from '@sendwell/contracts';
import { avatarInitials, fullName } from '@/lib/display';
import { CreditCard, LogOut, Settings } from 'lucide-react';
import { useNavigate } from 'react-router';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { paths } from '@/config/paths';

/** Avatar menu: full name only when both parts exist, the email, Settings, Subscription, Log out. */
export function UserMenu({ user, onLogout }: { user: User; onLogout: () => void }) {
  const navigate = useNavigate();
  const name = fullName(user);
  const initials = avatarInitials(user);
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <button
          type="button"
          // The visible initials are part of the name, as WCAG 2.5.3 (label in name) asks.
          aria-label={`${initials} Account menu`}
          className="flex h-9 w-9 items-center justify-center rounded-full bg-primary text-sm font-semibold text-primary-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
        >
          {initials}
        </button>
      </DropdownMenuTrigger>
      <DropdownMenuContent className="w-60">
        <DropdownMenuLabel>
          {name ? <span className="block font-medium">{name}</span> : null}
          <span className="block truncate text-xs text-muted-foreground">{user.email}</span>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={() => navigate(paths.settings)}>
          <Settings className="h-4 w-4" aria-hidden="true" /> Settings
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={() => navigate(paths.subscription)}>
          <CreditCard className="h-4 w-4" aria-hidden="true" /> Subscription
        </DropdownMenuItem>
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={onLogout}>
          <LogOut className="h-4 w-4" aria-hidden="true" /> Log out
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
