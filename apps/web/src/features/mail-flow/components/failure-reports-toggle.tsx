import { useId } from 'react';
import { Switch } from '@/components/ui/switch';
import { toast } from '@/components/ui/toast-store';
import { errorMessage } from '@/lib/api-client';
import { useUpdateMailFlowSettings } from '../api/mail-flow';

/** Failure (ruf) reports carry headers of single messages, so they are stored only when the owner opts in. */
export function FailureReportsToggle({ domainId, enabled }: { domainId: number; enabled: boolean }) {
  const id = useId();
  const update = useUpdateMailFlowSettings(domainId);
  const checked = update.isPending && update.variables ? update.variables.failureReports : enabled;
  return (
    <div className="flex items-start justify-between gap-4" data-testid="failure-reports-toggle">
      <div className="space-y-1">
        <label htmlFor={id} className="text-sm font-medium">
          Store failure reports
        </label>
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          Some receivers send a report for each failing message. Sendwell keeps them redacted: addresses&apos; local parts replaced, no subject or body.
        </p>
      </div>
      <Switch
        id={id}
        aria-describedby={`${id}-hint`}
        checked={checked}
        disabled={update.isPending}
        onCheckedChange={(value) =>
          update.mutate(
            { failureReports: value },
            {
              onSuccess: (saved) => toast({ title: saved.failureReports ? 'Failure reports on' : 'Failure reports off', description: saved.failureReports ? 'New failure reports will be stored.' : 'New failure reports will be discarded.' }),
              onError: (error) => toast({ title: 'Could not save', description: errorMessage(error, 'Please try again.'), variant: 'destructive' }),
            },
          )
        }
      />
    </div>
  );
}
