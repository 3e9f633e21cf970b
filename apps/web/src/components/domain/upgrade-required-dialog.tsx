import { Lock } from 'lucide-react';
import { useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { paths } from '@/config/paths';

/** Free plan: opening a domain's detail is blocked with this prompt (part 1 §2, §6). */
export function UpgradeRequiredDialog({ open, onOpenChange, domainName }: { open: boolean; onOpenChange: (open: boolean) => void; domainName?: string }) {
  const navigate = useNavigate();
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <span className="mb-1 flex h-10 w-10 items-center justify-center rounded-full bg-primary/10 text-primary">
            <Lock className="h-5 w-5" aria-hidden="true" />
          </span>
          <DialogTitle>Upgrade Required</DialogTitle>
          <DialogDescription>
            Detailed domain reports{domainName ? ` for ${domainName}` : ''}, history and continuous monitoring are available on paid plans. Upgrade to
            see every check in detail.
          </DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)}>
            Close
          </Button>
          <Button onClick={() => navigate(paths.subscription)}>Upgrade Now</Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
