import type { UploadReportsAnswer } from '@sendwell/contracts';
import type { UseMutationResult } from '@tanstack/react-query';
import { Upload } from 'lucide-react';
import { useId } from 'react';
import { Alert } from '@/components/ui/alert';
import { buttonClass } from '@/components/ui/button';
import { errorMessage } from '@/lib/api-client';
import { cn } from '@/lib/utils';
import { uploadOutcome } from '../lib/mail-flow-display';

const ACCEPT = '.xml,.gz,.gzip,.zip,.eml,.json,text/xml,application/xml,application/gzip,application/zip,message/rfc822';

/**
 * For reports already sitting in a mailbox (sent to an older rua address). The mutation lives in the
 * section so its outcome stays on screen when the first report switches the section to its data view.
 */
export function UploadReport({ upload }: { upload: UseMutationResult<UploadReportsAnswer, Error, File> }) {
  const id = useId();
  const outcome = upload.data ? uploadOutcome(upload.data) : null;
  return (
    <div className="space-y-3" data-testid="upload-report">
      <div className="flex flex-wrap items-center gap-3">
        <input
          id={id}
          type="file"
          accept={ACCEPT}
          className="peer sr-only"
          disabled={upload.isPending}
          aria-describedby={`${id}-hint`}
          onChange={(e) => {
            const file = e.currentTarget.files?.[0];
            // Cleared so that choosing the same file again still fires a change (and shows it is a duplicate).
            e.currentTarget.value = '';
            if (file) upload.mutate(file);
          }}
        />
        <label htmlFor={id} className={buttonClass('outline', 'sm', cn('peer-focus-visible:ring-2 peer-focus-visible:ring-ring', upload.isPending ? 'pointer-events-none opacity-50' : 'cursor-pointer'))}>
          <Upload className="h-4 w-4" aria-hidden="true" />
          {upload.isPending ? 'Uploading…' : 'Upload a report'}
        </label>
        <span id={`${id}-hint`} className="text-xs text-muted-foreground">
          DMARC aggregate (XML, .gz, .zip or the whole .eml) or TLS-RPT (.json, .json.gz), up to 10 MB.
        </span>
      </div>
      {upload.isError ? (
        <Alert variant="destructive" title="The report was not accepted">
          <span data-testid="upload-error">{errorMessage(upload.error, 'The upload failed. Please try again.')}</span>
        </Alert>
      ) : outcome ? (
        <Alert variant={outcome.stored.length ? 'success' : 'default'} title={outcome.stored.length ? 'Report uploaded' : 'Nothing new in this file'}>
          <ul className="space-y-0.5" data-testid="upload-outcome">
            {outcome.stored.map((line) => (
              <li key={line}>{line}</li>
            ))}
            {outcome.duplicates.map((line) => (
              <li key={line} data-testid="upload-duplicate">
                {line}
              </li>
            ))}
          </ul>
        </Alert>
      ) : null}
    </div>
  );
}
