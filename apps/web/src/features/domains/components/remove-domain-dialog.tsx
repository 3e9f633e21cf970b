import { domainRemovedMessage, type Domain } from '@sendwell/contracts';
import { useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { toast } from '@/components/ui/toast-store';
import { paths } from '@/config/paths';
import { useDeleteDomain } from '../api/delete-domain';

/** Removal asks first; the text says the data is kept for 90 days (part 1 §2, §8). */
export function RemoveDomainDialog({ domain, onClose }: { domain: Domain | null; onClose: () => void }) {
  const remove = useDeleteDomain();
  const navigate = useNavigate();
  const onConfirm = async () => {
    if (!domain) return;
    try {
      await remove.mutateAsync(domain.id);
      toast({ title: 'Domain removed', description: domainRemovedMessage(domain.name) });
      onClose();
      navigate(paths.domains);
    } catch {
      toast({ title: 'Error', description: 'Failed to delete domain. Please try again.', variant: 'destructive' });
    }
  };
  return (
    <Dialog open={domain !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Remove {domain?.name}?</DialogTitle>
          <DialogDescription>
            {domain?.name} will no longer be monitored. Its data will be retained for 90 days, so you can restore it with its history from Recently Deleted.
          </DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button variant="destructive" onClick={() => void onConfirm()} disabled={remove.isPending}>
            {remove.isPending ? 'Removing...' : 'Remove Domain'}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
