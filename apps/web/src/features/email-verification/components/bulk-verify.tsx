import { EMAIL_VERIFY_BATCH_MAX, EMAIL_VERIFY_BULK_MAX, features, type EmailVerificationResult } from '@sendwell/contracts';
import { Download, Square, Upload } from 'lucide-react';
import { useMemo, useRef, useState, type ChangeEvent } from 'react';
import { Link } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button, buttonClass } from '@/components/ui/button';
import { Progress } from '@/components/ui/progress';
import { toast } from '@/components/ui/toast-store';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/api-client';
import { useUser } from '@/lib/auth/auth-provider';
import { saveFile } from '@/lib/save-file';
import { verifyEmailBatch } from '../api/verify';
import { batches, parseAddressList, resultsCsv } from '../lib/address-list';
import { categoryDisplay } from '../lib/categories';

type Run = { state: 'idle' } | { state: 'running'; total: number } | { state: 'done' | 'stopped' | 'failed'; total: number; error?: string };

/**
 * The bulk mode (standard and advanced): up to 1,000 addresses pasted or from a file, sent in batches
 * one after another so the page shows progress and Stop takes effect between batches; the results
 * download as CSV.
 */
export function BulkVerify() {
  const user = useUser();
  if (!features.inboxPlacement(user.planType)) {
    return (
      <Alert title="Bulk verification is available on the Standard and Advanced plans.">
        <p className="mb-3">Verify up to {EMAIL_VERIFY_BULK_MAX.toLocaleString('en-US')} addresses at once and download the results as CSV.</p>
        <Link to={paths.subscription} className={buttonClass('default', 'sm')}>
          View Subscription Plans
        </Link>
      </Alert>
    );
  }
  return <BulkVerifier />;
}

function BulkVerifier() {
  const [text, setText] = useState('');
  const [results, setResults] = useState<EmailVerificationResult[]>([]);
  const [run, setRun] = useState<Run>({ state: 'idle' });
  const stopRef = useRef(false);
  const fileRef = useRef<HTMLInputElement>(null);
  const list = useMemo(() => parseAddressList(text), [text]);
  const running = run.state === 'running';

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    if (file.size > 1_000_000) {
      toast({ title: 'File too large', description: 'Choose a text or CSV file under 1 MB.', variant: 'destructive' });
      return;
    }
    setText(await file.text());
  };

  const start = async () => {
    if (list.emails.length === 0) {
      toast({ title: 'Email Required', description: 'Paste or upload at least one email address.', variant: 'destructive' });
      return;
    }
    stopRef.current = false;
    setResults([]);
    const total = list.emails.length;
    setRun({ state: 'running', total });
    const done: EmailVerificationResult[] = [];
    for (const batch of batches(list.emails, EMAIL_VERIFY_BATCH_MAX)) {
      if (stopRef.current) {
        setRun({ state: 'stopped', total });
        return;
      }
      try {
        const answer = await verifyEmailBatch(batch);
        done.push(...answer.results);
        setResults([...done]);
      } catch (error) {
        const message = errorMessage(error, 'Failed to verify email address');
        setRun({ state: 'failed', total, error: message });
        toast({ title: 'Verification Failed', description: message, variant: 'destructive' });
        return;
      }
    }
    setRun({ state: 'done', total });
  };

  const counts = useMemo(() => {
    const by = new Map<string, number>();
    for (const r of results) by.set(categoryDisplay(r.category).label, (by.get(categoryDisplay(r.category).label) ?? 0) + 1);
    return [...by.entries()];
  }, [results]);

  return (
    <div className="space-y-4">
      <div className="space-y-2">
        <label htmlFor="bulk-addresses" className="text-sm font-medium">
          Addresses, one per line or separated by commas
        </label>
        <textarea
          id="bulk-addresses"
          className="min-h-40 w-full rounded-md border border-input bg-background px-3 py-2 font-mono text-sm placeholder:text-muted-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:opacity-50"
          placeholder={'jane@example.com\njohn@example.org'}
          value={text}
          onChange={(e) => setText(e.target.value)}
          disabled={running}
          spellCheck={false}
        />
        <div className="flex flex-wrap items-center justify-between gap-2 text-sm text-muted-foreground">
          <span data-testid="bulk-count">
            {list.emails.length.toLocaleString('en-US')} {list.emails.length === 1 ? 'address' : 'addresses'}
            {list.duplicates > 0 ? ` · ${list.duplicates} repeated left out` : ''}
            {list.overLimit > 0 ? ` · ${list.overLimit} over the ${EMAIL_VERIFY_BULK_MAX.toLocaleString('en-US')} limit left out` : ''}
          </span>
          <span className="flex gap-2">
            <input ref={fileRef} type="file" accept=".txt,.csv,text/plain,text/csv" className="sr-only" onChange={(e) => void onFile(e)} aria-label="Upload a list of addresses" tabIndex={-1} />
            <Button type="button" variant="outline" size="sm" onClick={() => fileRef.current?.click()} disabled={running}>
              <Upload className="h-4 w-4" aria-hidden="true" />
              Upload file
            </Button>
            {running ? (
              <Button type="button" variant="outline" size="sm" onClick={() => (stopRef.current = true)}>
                <Square className="h-4 w-4" aria-hidden="true" />
                Stop
              </Button>
            ) : (
              <Button type="button" size="sm" onClick={() => void start()}>
                Verify all
              </Button>
            )}
          </span>
        </div>
      </div>

      {run.state !== 'idle' ? (
        <div className="space-y-2" data-testid="bulk-progress" data-state={run.state}>
          <div className="flex justify-between text-sm">
            <span>
              {run.state === 'running' ? 'Verifying...' : run.state === 'done' ? 'Done' : run.state === 'stopped' ? 'Stopped' : 'Stopped by an error'}
            </span>
            <span>
              {results.length} / {run.total}
            </span>
          </div>
          <Progress value={results.length} max={run.total} label="Addresses verified" />
          {run.state === 'failed' && run.error ? <p className="text-sm text-destructive">{run.error}</p> : null}
        </div>
      ) : null}

      {results.length > 0 ? (
        <div className="space-y-3">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <ul className="flex flex-wrap gap-2" aria-label="Results by category">
              {counts.map(([label, n]) => (
                <li key={label}>
                  <Badge variant="outline" className="normal-case">
                    {label}: {n}
                  </Badge>
                </li>
              ))}
            </ul>
            <Button type="button" variant="outline" size="sm" disabled={running} onClick={() => saveFile(new Blob([resultsCsv(results)], { type: 'text/csv' }), 'sendwell-email-verification.csv')}>
              <Download className="h-4 w-4" aria-hidden="true" />
              Download CSV
            </Button>
          </div>
          <div className="max-h-96 overflow-auto rounded-lg border" tabIndex={0} role="region" aria-label="Verification results">
            <table className="w-full text-left text-sm">
              <thead className="sticky top-0 bg-muted">
                <tr>
                  <th className="px-3 py-2 font-medium">Email</th>
                  <th className="px-3 py-2 font-medium">Result</th>
                  <th className="hidden px-3 py-2 font-medium md:table-cell">Why</th>
                </tr>
              </thead>
              <tbody>
                {results.map((r, i) => (
                  <tr key={`${r.email}-${i}`} className="border-t" data-testid="bulk-row">
                    <td className="break-all px-3 py-2">{r.email}</td>
                    <td className="px-3 py-2">
                      <Badge variant={categoryDisplay(r.category).badge} className="normal-case">{categoryDisplay(r.category).label}</Badge>
                      <span className="ml-2 font-mono text-xs text-muted-foreground">{r.status}</span>
                    </td>
                    <td className="hidden px-3 py-2 text-muted-foreground md:table-cell">{r.description}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      ) : null}
    </div>
  );
}
