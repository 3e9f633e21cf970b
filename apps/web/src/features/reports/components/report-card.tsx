import { reportFormats, type Report, type ReportFormat } from '@sendwell/contracts';
import { Download, Eye, Trash2 } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { ActionMenu } from '@/components/ui/action-menu';
import { Spinner } from '@/components/ui/spinner';
import { formatUserDate } from '@/lib/display';
import { isInProgress, reportTypeLabel, summaryPreview } from '../lib/report-display';

export const formatLabel: Record<ReportFormat, string> = { pdf: 'PDF', html: 'HTML', json: 'JSON', text: 'Text' };

interface ReportCardProps {
  report: Report;
  /** The user's date format and time zone (Settings). */
  user: { dateFormat: string; timezone: string };
  selecting: boolean;
  selected: boolean;
  onSelect(selected: boolean): void;
  onDownload(format: ReportFormat): void;
  onPreview(): void;
  onDelete(): void;
}

export function ReportCard({ report, user, selecting, selected, onSelect, onDownload, onPreview, onDelete }: ReportCardProps) {
  const building = isInProgress(report);
  const failed = report.status === 'failed';
  const domain = report.data.domainName;
  return (
    <Card data-testid="report-card" data-status={report.status} className={selected ? 'ring-2 ring-primary' : undefined}>
      <CardHeader className="flex-row items-start gap-3 space-y-0">
        {selecting ? (
          <input type="checkbox" aria-label={`Select report for ${domain}`} className="mt-1 h-4 w-4 accent-primary" checked={selected} onChange={(e) => onSelect(e.target.checked)} />
        ) : null}
        <div className="min-w-0 flex-1 space-y-1">
          <div className="flex flex-wrap items-center gap-2">
            <Badge variant="secondary" className="normal-case">
              {reportTypeLabel(report.type)}
            </Badge>
            {typeof report.data.score === 'number' ? <span className="text-sm font-semibold">Score {report.data.score}</span> : null}
          </div>
          <CardTitle as="h3" className="break-all text-base">
            {domain}
          </CardTitle>
          <CardDescription>{formatUserDate(report.createdAt, user.dateFormat, user.timezone)}</CardDescription>
        </div>
      </CardHeader>
      <CardContent>
        {building ? (
          <p className="flex items-center gap-2 text-sm text-muted-foreground">
            <Spinner className="h-4 w-4" label="Generating" /> Generating…
          </p>
        ) : failed ? (
          <p className="text-sm text-destructive">{report.data.error ?? 'This report could not be generated.'}</p>
        ) : (
          <p className="text-sm text-muted-foreground">{summaryPreview(report.data.summary)}</p>
        )}
      </CardContent>
      {selecting || building ? null : (
        <CardFooter className="flex flex-wrap gap-2">
          {failed ? null : (
            <>
              <ActionMenu
                button={(props) => (
                  <Button size="sm" variant="outline" aria-label={`Download report for ${domain}`} {...props}>
                    <Download className="h-4 w-4" aria-hidden="true" /> Download
                  </Button>
                )}
                items={reportFormats.map((format) => ({ label: formatLabel[format], onSelect: () => onDownload(format) }))}
              />
              <Button size="sm" variant="outline" onClick={onPreview} aria-label={`Preview report for ${domain}`}>
                <Eye className="h-4 w-4" aria-hidden="true" /> Preview
              </Button>
            </>
          )}
          <Button size="sm" variant="ghost" onClick={onDelete} aria-label={`Delete report for ${domain}`}>
            <Trash2 className="h-4 w-4" aria-hidden="true" /> Delete
          </Button>
        </CardFooter>
      )}
    </Card>
  );
}
