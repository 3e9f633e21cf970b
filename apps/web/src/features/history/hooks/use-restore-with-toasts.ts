import { toast } from '@/components/ui/toast-store';
import { errorMessage } from '@/lib/api-client';
import { useRestoreDomain } from '@/lib/api/restore-domain';

/** Restore by name, with part 2 §8's toasts; shared by the card and the last-scan summary. */
export function useRestoreWithToasts() {
  const restore = useRestoreDomain();
  const run = async (name: string): Promise<boolean> => {
    try {
      await restore.mutateAsync(name);
      toast({ title: 'Domain Restored Successfully', description: `${name} has been restored to your active domains` });
      return true;
    } catch (error) {
      toast({ title: 'Restore Failed', description: errorMessage(error, 'Failed to restore domain. Please try again.'), variant: 'destructive' });
      return false;
    }
  };
  return { run, isPending: restore.isPending };
}
