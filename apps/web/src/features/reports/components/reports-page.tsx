import { features, planRules, reportFormats, type PlanType, type Report, type ReportFormat } from '@sendwell/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { FileText } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { ActionMenu } from '@/components/ui/action-menu';
import { ReadError } from '@/components/ui/read-error';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/toast-store';
import { UpgradeRequiredScreen } from '@/components/ui/upgrade-required-screen';
import { useUser } from '@/lib/auth/auth-provider';
import { useDomains } from '@/lib/api/get-domains';
import { deleteReport, invalidateReports, useReportsList } from '../api/reports';
import { downloadReport } from '../lib/download';
import { bulkDeleteEstimate, isInProgress } from '../lib/report-display';
import { GenerateDialog } from './generate-dialog';
import { PreviewDialog } from './preview-dialog';
import { formatLabel, ReportCard } from './report-card';

const NOTHING_SELECTED = (what: 'delete' | 'download') => `Please select at least one report to ${what}.`;

/** /reports (part 1 §6): cards, generation with progress, downloads with fallbacks, preview, selection mode. */
export function ReportsPage() {
  const user = useUser();
  if (!features.reports(user.planType)) {
    return <UpgradeRequiredScreen description="Reports of each domain's health, in PDF, HTML, JSON and text, on demand and on a schedule, are available on paid plans. Upgrade to unlock:" />;
  }
  return <Reports />;
}

function Reports() {
  const user = useUser();
  const queryClient = useQueryClient();
  const reports = useReportsList();
  const domains = useDomains();
  const quota = planRules[user.planType as PlanType]?.reportQuota ?? null;
  const [generateOpen, setGenerateOpen] = useState(false);
  const [preview, setPreview] = useState<Report | null>(null);
  const [selecting, setSelecting] = useState(false);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [confirm, setConfirm] = useState<{ ids: number[] } | null>(null);
  const [working, setWorking] = useState(false);
  const list = useMemo(() => reports.data ?? [], [reports.data]);
  const building = list.filter(isInProgress).length;
  const activeDomains = (domains.data ?? []).filter((d) => !d.isDeleted);

  const stopSelecting = () => {
    setSelecting(false);
    setSelected(new Set());
  };

  async function remove(ids: number[]) {
    setWorking(true);
    let failed = 0;
    // One call per report, one after another (part 1 §7).
    for (const id of ids) {
      try {
        await deleteReport(id);
      } catch {
        failed += 1;
      }
    }
    setWorking(false);
    setConfirm(null);
    await invalidateReports(queryClient);
    if (failed > 0) toast({ title: 'Error', description: ids.length === 1 ? 'Failed to delete report. Please try again.' : 'Failed to delete some reports. Please try again.', variant: 'destructive' });
    else toast({ title: ids.length === 1 ? 'Report Deleted' : 'Reports Deleted', description: ids.length === 1 ? 'The report was deleted.' : `${ids.length} reports were deleted.` });
    if (ids.length > 1 || selecting) stopSelecting();
  }

  async function bulkDownload(format: ReportFormat) {
    const chosen = list.filter((r) => selected.has(r.id) && r.status === 'completed');
    if (selected.size === 0) {
      toast({ title: 'No reports selected', description: NOTHING_SELECTED('download'), variant: 'destructive' });
      return;
    }
    setWorking(true);
    let done = 0;
    for (const report of chosen) if (await downloadReport(report, format, { quiet: true })) done += 1;
    setWorking(false);
    if (done === selected.size) toast({ title: 'Reports Downloaded', description: `${done} of ${selected.size}` });
    else toast({ title: 'Error', description: 'Failed to download some reports. Please try again.', variant: 'destructive' });
  }

  function bulkDelete() {
    if (selected.size === 0) {
      toast({ title: 'No reports selected', description: NOTHING_SELECTED('delete'), variant: 'destructive' });
      return;
    }
    setConfirm({ ids: [...selected] });
  }

  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div className="min-w-0 space-y-1">
          <h2 className="text-2xl font-bold tracking-tight">Reports</h2>
          <p className="text-sm text-muted-foreground">
            {quota !== null && reports.data ? `${list.length} / ${quota} reports stored.` : null} Automated reports arrive{' '}
            {planRules[user.planType as PlanType]?.automatedReports ?? 'regularly'} and by email.
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          {selecting ? (
            <>
              <Button variant="outline" onClick={() => setSelected(new Set(list.map((r) => r.id)))}>
                Select all
              </Button>
              <ActionMenu
                button={(props) => (
                  <Button variant="outline" disabled={working} {...props}>
                    Download selected
                  </Button>
                )}
                items={reportFormats.map((format) => ({ label: formatLabel[format], onSelect: () => void bulkDownload(format) }))}
              />
              <Button variant="destructive" onClick={bulkDelete} disabled={working}>
                Delete selected
              </Button>
              <Button variant="ghost" onClick={stopSelecting}>
                Cancel
              </Button>
            </>
          ) : (
            <>
              <Button variant="outline" onClick={() => setSelecting(true)} disabled={list.length === 0}>
                Select Reports
              </Button>
              <Button onClick={() => setGenerateOpen(true)}>Generate Reports</Button>
            </>
          )}
        </div>
      </div>

      {building > 0 ? (
        <p className="flex items-center gap-2 rounded-md border bg-muted/40 p-3 text-sm" role="status" data-testid="reports-progress">
          <Spinner className="h-4 w-4" label="Generating" /> Generating {building} report{building === 1 ? '' : 's'}…
        </p>
      ) : null}
      {selecting ? <p className="text-sm text-muted-foreground">{selected.size} selected</p> : null}

      {reports.isPending ? (
        <Spinner label="Loading reports" />
      ) : reports.isError && !reports.data ? (
        // Only a first read that failed: a failed refetch keeps the list it already has.
        <ReadError
          testId="reports-read-error"
          title="Couldn't load your reports."
          message="The list of your reports could not be read just now."
          retrying={reports.isFetching}
          onRetry={() => void reports.refetch()}
        />
      ) : list.length === 0 ? (
        <Card>
          <CardContent className="flex flex-col items-center gap-3 py-12 text-center">
            <FileText className="h-10 w-10 text-muted-foreground" aria-hidden="true" />
            <p className="font-medium">No reports yet</p>
            <p className="max-w-md text-sm text-muted-foreground">Generate a report of any domain: its checks, blacklists, trends and what to fix first, as PDF, HTML, JSON or text.</p>
          </CardContent>
        </Card>
      ) : (
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-3" data-testid="report-list">
          {list.map((report) => (
            <ReportCard
              key={report.id}
              report={report}
              user={user}
              selecting={selecting}
              selected={selected.has(report.id)}
              onSelect={(on) =>
                setSelected((prev) => {
                  const next = new Set(prev);
                  if (on) next.add(report.id);
                  else next.delete(report.id);
                  return next;
                })
              }
              onDownload={(format) => void downloadReport(report, format)}
              onPreview={() => setPreview(report)}
              onDelete={() => setConfirm({ ids: [report.id] })}
            />
          ))}
        </div>
      )}

      <GenerateDialog domains={activeDomains} open={generateOpen} onOpenChange={setGenerateOpen} />
      <PreviewDialog report={preview} onOpenChange={(open) => !open && setPreview(null)} />
      <Dialog open={confirm !== null} onOpenChange={(open) => !open && setConfirm(null)}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>{confirm && confirm.ids.length > 1 ? `Delete ${confirm.ids.length} reports?` : 'Delete this report?'}</DialogTitle>
            <DialogDescription>
              {confirm ? `This frees ${bulkDeleteEstimate(confirm.ids.length)} of your report storage and cannot be undone.` : null}
            </DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <Button variant="outline" onClick={() => setConfirm(null)}>
              Keep
            </Button>
            <Button variant="destructive" disabled={working} onClick={() => confirm && void remove(confirm.ids)}>
              Delete
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </div>
  );
}
