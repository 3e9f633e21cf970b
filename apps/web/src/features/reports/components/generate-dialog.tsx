import { NO_DOMAINS_FOR_REPORTS, type ListDomainsAnswer } from '@sendwell/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { toast } from '@/components/ui/toast-store';
import { errorMessage, isClientError } from '@/lib/api-client';
import { generateReports, invalidateReports } from '../api/reports';

/** Generate: the user's active domains (all chosen at first) and the report type. */
export function GenerateDialog({ domains, open, onOpenChange }: { domains: ListDomainsAnswer; open: boolean; onOpenChange: (open: boolean) => void }) {
  const [chosen, setChosen] = useState<Set<number>>(new Set());
  const [type, setType] = useState<'full' | 'summary'>('full');
  const [busy, setBusy] = useState(false);
  const queryClient = useQueryClient();

  useEffect(() => {
    if (open) setChosen(new Set(domains.map((d) => d.id)));
  }, [open, domains]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const selected = domains.filter((d) => chosen.has(d.id));
    if (selected.length === 0) {
      toast({ title: 'No domains available', description: NO_DOMAINS_FOR_REPORTS.replace('No domains available - ', ''), variant: 'destructive' });
      return;
    }
    setBusy(true);
    try {
      const answer = await generateReports({ domains: selected.map((d) => ({ id: d.id, name: d.name })), type });
      const refused = answer.refused.map((r) => `${r.domain}: ${r.message}`).join(' ');
      toast({ title: 'Reports Generated', description: refused ? `${answer.message} ${refused}` : answer.message });
      onOpenChange(false);
    } catch (error) {
      toast({
        title: 'Error',
        description: isClientError(error) ? errorMessage(error, 'Failed to generate reports. Please try again.') : 'Failed to generate reports. Please try again.',
        variant: 'destructive',
      });
    } finally {
      setBusy(false);
      await invalidateReports(queryClient);
    }
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <form onSubmit={submit} className="grid grid-cols-1 gap-4">
          <DialogHeader>
            <DialogTitle>Generate Reports</DialogTitle>
            <DialogDescription>One report per domain, built from its latest scan and its history.</DialogDescription>
          </DialogHeader>
          {domains.length === 0 ? (
            <p className="text-sm text-destructive" role="alert">
              {NO_DOMAINS_FOR_REPORTS}
            </p>
          ) : (
            <fieldset className="grid grid-cols-1 gap-2">
              <legend className="mb-1 text-sm font-medium">Domains</legend>
              {domains.map((d) => (
                <label key={d.id} className="flex items-center gap-2 text-sm">
                  <input
                    type="checkbox"
                    className="h-4 w-4 accent-primary"
                    checked={chosen.has(d.id)}
                    onChange={(e) =>
                      setChosen((prev) => {
                        const next = new Set(prev);
                        if (e.target.checked) next.add(d.id);
                        else next.delete(d.id);
                        return next;
                      })
                    }
                  />
                  <span className="break-all">{d.name}</span>
                </label>
              ))}
            </fieldset>
          )}
          <fieldset className="grid grid-cols-1 gap-2">
            <legend className="mb-1 text-sm font-medium">Report type</legend>
            {(
              [
                ['full', 'Full', 'every check, blacklists, 30- and 90-day trends and the action plan'],
                ['summary', 'Summary', 'one page: status, score and the top three actions'],
              ] as const
            ).map(([value, label, hint]) => (
              <label key={value} className="flex items-start gap-2 text-sm">
                <input type="radio" name="report-type" className="mt-0.5 h-4 w-4 accent-primary" checked={type === value} onChange={() => setType(value)} />
                <span>
                  <span className="font-medium">{label}</span> <span className="text-muted-foreground">({hint})</span>
                </span>
              </label>
            ))}
          </fieldset>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
              Close
            </Button>
            <Button type="submit" disabled={busy || domains.length === 0}>
              {busy ? 'Generating…' : 'Generate'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
