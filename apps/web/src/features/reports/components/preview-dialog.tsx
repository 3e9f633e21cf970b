import type { Report } from '@sendwell/contracts';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { reportFileUrl } from '../api/reports';

/** The HTML report in the page: a sandboxed frame (no script, no forms), served inline under a script-free CSP. */
export function PreviewDialog({ report, onOpenChange }: { report: Report | null; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog open={report !== null} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-5xl">
        <DialogHeader>
          <DialogTitle>Preview: {report?.data.domainName}</DialogTitle>
          <DialogDescription>The HTML report as it downloads; it prints on A4.</DialogDescription>
        </DialogHeader>
        {report ? (
          <iframe
            title={`Report for ${report.data.domainName}`}
            src={reportFileUrl(report.id, 'html', true)}
            sandbox=""
            className="h-[70vh] w-full rounded-md border bg-white"
            data-testid="report-preview"
          />
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
