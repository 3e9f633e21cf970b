import { type User } from '@sendwell/contracts';
import type { ReactNode } from 'react';
import { fullName } from '@/lib/display';
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

/** The avatar menu itself, loaded on demand by UserMenu. */
export function UserMenuContent({ user, onLogout, trigger, defaultOpen }: { user: User; onLogout: () => void; trigger: ReactNode; defaultOpen: boolean }) {
  const navigate = useNavigate();
  const name = fullName(user);
  return (
    <DropdownMenu defaultOpen={defaultOpen}>
      <DropdownMenuTrigger asChild>{trigger}</DropdownMenuTrigger>
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
