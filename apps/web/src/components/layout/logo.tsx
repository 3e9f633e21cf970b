import { MailCheck } from 'lucide-react';
import { cn } from '@/lib/utils';

export function Logo({ compact = false, className }: { compact?: boolean; className?: string }) {
  return (
    <span className={cn('inline-flex items-center gap-2 font-bold tracking-tight', className)}>
      <span className="flex h-8 w-8 items-center justify-center rounded-lg bg-primary text-primary-foreground">
        <MailCheck className="h-5 w-5" aria-hidden="true" />
      </span>
      {compact ? <span className="sr-only">Sendwell</span> : <span className="text-lg">Sendwell</span>}
    </span>
  );
}
