import { Plus } from 'lucide-react';
import { Button, type ButtonProps } from '@/components/ui/button';
import { toast } from '@/components/ui/toast-store';
import { errorMessage } from '@/lib/api-client';
import { useCreateMailTest } from '../api/mail-tests';

/** Opens a new test address; the server's message (plan, daily quota) shows when it refuses. */
export function NewTestButton({ onCreated, disabled, variant }: { onCreated: (id: number) => void; disabled?: boolean; variant?: ButtonProps['variant'] }) {
  const create = useCreateMailTest();
  const start = () =>
    create.mutate(undefined, {
      onSuccess: (test) => onCreated(test.id),
      onError: (error) => toast({ title: 'No new test', description: errorMessage(error, 'The test could not be created. Please try again.'), variant: 'destructive' }),
    });
  return (
    <Button variant={variant} onClick={start} disabled={disabled || create.isPending}>
      <Plus className="h-4 w-4" aria-hidden="true" />
      {create.isPending ? 'Creating…' : 'New test'}
    </Button>
  );
}
