import {
  checkRows,
  features,
  type DomainCheck,
  type Finding,
  type MxRecord,
  type ScanStatusAnswer,
} from '@sendwell/contracts';
import { ArrowLeft, BookOpen, Clock, ExternalLink, RefreshCw } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { ScanProgress } from '@/components/checks/scan-progress';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { NativeSelect } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/toast-store';
import { UpgradeRequiredScreen } from '@/components/ui/upgrade-required-screen';
import { paths } from '@/config/paths';
import { useChecksByName } from '@/lib/api/get-checks-by-name';
import { useDnsRecords } from '@/lib/api/get-dns-records';
import { useDomainByName } from '@/lib/api/get-domain-by-name';
import { useScanDomain } from '@/lib/api/scan-domain';
import { ApiRequestError } from '@/lib/api-client';
import { useUser } from '@/lib/auth/auth-provider';
import { checkDetails, detailsIn } from '@/lib/check-details';
import { checkBadgeVariant, checkRowLabel, isFixingGuideType, type FixingGuideType } from '@/lib/display';
import { useFollowedScan } from '@/lib/hooks/use-followed-scan';
import { useReportAddresses } from '../api/get-report-addresses';
import { guideContent } from '../lib/guide-content';
import { dnsProviderIds, dnsProviders, providerSteps, type DnsProviderId } from '../lib/providers';
import { suggestDkim, suggestDmarc, suggestSpf, type Suggestion } from '../lib/suggest';
import { CopyValue } from '@/components/ui/copy-value';

const detailPath = (name: string) => `/domains/${encodeURIComponent(name)}`;
const passes = (status: string | undefined) => status === 'valid' || status === 'success';
const titleOf = (type: FixingGuideType) => checkRows.find((r) => r.type === type)!.title;

function Message({ title, children }: { title: string; children: string }) {
  return (
    <Card className="mx-auto max-w-lg text-center" data-testid="guide-message">
      <CardHeader>
        <CardTitle>{title}</CardTitle>
        <CardDescription>{children}</CardDescription>
      </CardHeader>
      <CardContent>
        <Link to={paths.domains} className="text-sm text-primary underline-offset-4 hover:underline">
          Back to Domains
        </Link>
      </CardContent>
    </Card>
  );
}

/** /fixing-guide/{domainName}/{type} (part 2 §2.7): how to fix one check of one domain, from its latest scan. */
export function FixingGuidePage({ domainName, type }: { domainName: string; type: string }) {
  const user = useUser();
  if (!isFixingGuideType(type)) return <Message title="Guide not found">The requested guide could not be found.</Message>;
  if (!features.domainDetail(user.planType)) return <UpgradeRequiredScreen description="Step-by-step fixing guides for each domain are available on paid plans. Upgrade to unlock:" />;
  return <FixingGuide domainName={domainName} type={type} />;
}

function FixingGuide({ domainName, type }: { domainName: string; type: FixingGuideType }) {
  const domain = useDomainByName(domainName);
  const checks = useChecksByName(domainName);
  const dns = useDnsRecords(domainName);
  if (domain.isPending || checks.isPending || dns.isPending) {
    return (
      <div className="space-y-4" aria-busy="true" aria-label="Loading the guide">
        <Skeleton className="h-8 w-72" />
        <Skeleton className="h-40 w-full" />
        <Skeleton className="h-64 w-full" />
      </div>
    );
  }
  if (domain.isError) {
    const missing = domain.error instanceof ApiRequestError && (domain.error.status === 404 || domain.error.status === 400);
    if (missing) return <Message title="Domain not found">This domain doesn&apos;t exist or you don&apos;t have permission to view it.</Message>;
  }
  if (domain.isError || checks.isError || dns.isError) return <Alert variant="destructive">Could not load domain check information. Please try again.</Alert>;
  return <Guide domainId={domain.data.id} domainName={domain.data.name} type={type} checks={checks.data} mx={dns.data.mxRecords} />;
}

/**
 * Where the suggested DMARC record sends reports: the domain's own address at the intake, so they show
 * under Mail flow; the user's email only if the addresses cannot be read (the intake unreachable).
 */
function useDmarcReportTo(domainId: number, type: FixingGuideType): { pending: boolean; reportTo: string } {
  const user = useUser();
  const addresses = useReportAddresses(domainId, { enabled: type === 'dmarc' });
  return { pending: type === 'dmarc' && addresses.isPending, reportTo: addresses.data?.dmarcAddress ?? user.email };
}

function Guide({ domainId, domainName, type, checks, mx }: { domainId: number; domainName: string; type: FixingGuideType; checks: readonly DomainCheck[]; mx: readonly MxRecord[] }) {
  const check = checks.find((c) => c.type === type);
  const [provider, setProvider] = useState<DnsProviderId>('cloudflare');
  const content = guideContent[type];
  const title = titleOf(type);
  const { pending, reportTo } = useDmarcReportTo(domainId, type);
  const suggestion = suggestionFor(type, domainName, checks, mx, reportTo);
  // The check's message usually is its first finding: each is said once.
  const findings = ((check?.details as { findings?: Finding[] } | undefined)?.findings ?? []).filter((f) => f.severity !== 'info' && f.message !== check?.message);

  return (
    <div className="space-y-6">
      <div className="space-y-1">
        <Link to={detailPath(domainName)} className="inline-flex items-center gap-1 text-sm text-muted-foreground hover:text-foreground">
          <ArrowLeft className="h-4 w-4" aria-hidden="true" />
          {domainName}
        </Link>
        <h2 className="flex flex-wrap items-center gap-2 text-2xl font-bold tracking-tight">
          Fix {content.title} for <span className="break-all">{domainName}</span>
        </h2>
      </div>

      <Card data-testid="guide-summary">
        <CardHeader className="gap-2 sm:flex-row sm:items-center sm:justify-between">
          <CardTitle as="h3" className="text-lg">
            The issue
          </CardTitle>
          {check ? <Badge variant={checkBadgeVariant(check.status)}>{checkRowLabel(type, check.status)}</Badge> : <Badge>Not scanned yet</Badge>}
        </CardHeader>
        <CardContent className="space-y-3 text-sm">
          <p>{check?.message ?? `${domainName} has not been scanned yet: use Check again below.`}</p>
          {findings.length > 0 ? (
            <ul className="list-disc space-y-1 pl-5" data-testid="guide-findings">
              {findings.map((f, i) => (
                <li key={`${f.code}-${i}`}>
                  {f.message}
                  {f.rfc ? <span className="ml-2 whitespace-nowrap rounded bg-muted px-1.5 py-0.5 text-xs text-muted-foreground">{f.rfc}</span> : null}
                </li>
              ))}
            </ul>
          ) : null}
          {passes(check?.status) ? <p className="font-medium text-green-700 dark:text-green-400">Nothing to fix: {title} passes. The guide stays here for reference.</p> : null}
        </CardContent>
      </Card>

      <CurrentRecord type={type} check={check} />

      {type === 'blacklist' ? (
        <Delisting check={check} />
      ) : pending ? (
        <Skeleton className="h-40 w-full" />
      ) : (
        <>
          <SuggestedRecord suggestion={suggestion} />
          {suggestion.records.length > 0 ? <ProviderSteps provider={provider} onProvider={setProvider} suggestion={suggestion} domainName={domainName} /> : null}
        </>
      )}

      <CheckAgain domainId={domainId} domainName={domainName} type={type} />

      <Card>
        <CardHeader>
          <CardTitle as="h3" className="flex items-center gap-2 text-lg">
            <BookOpen className="h-5 w-5" aria-hidden="true" />
            About {content.title}
          </CardTitle>
        </CardHeader>
        <CardContent className="space-y-5 text-sm">
          <p>{content.about.replaceAll('{domain}', domainName)}</p>
          <section aria-labelledby="common-issues" className="space-y-2">
            <h4 id="common-issues" className="font-semibold">
              Common issues
            </h4>
            <ul className="list-disc space-y-1 pl-5">
              {content.commonIssues.map((t) => (
                <li key={t}>{t.replaceAll('{domain}', domainName)}</li>
              ))}
            </ul>
          </section>
          <section aria-labelledby="troubleshooting" className="space-y-2">
            <h4 id="troubleshooting" className="font-semibold">
              Troubleshooting
            </h4>
            <ul className="list-disc space-y-1 pl-5">
              {content.troubleshooting.map((t) => (
                <li key={t}>{t}</li>
              ))}
            </ul>
          </section>
          <p className="flex items-start gap-2 rounded-md border bg-muted/40 p-3" data-testid="propagation-note">
            <Clock className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
            DNS changes take from 15 minutes to 24 hours to reach every resolver, depending on the record&apos;s TTL.
          </p>
        </CardContent>
      </Card>
    </div>
  );
}

function suggestionFor(type: FixingGuideType, domain: string, checks: readonly DomainCheck[], mx: readonly MxRecord[], reportTo: string): Suggestion {
  switch (type) {
    case 'spf':
      return suggestSpf(domain, detailsIn(checks, 'spf'), mx);
    case 'dmarc': {
      const authenticated = passes(checks.find((c) => c.type === 'spf')?.status) && passes(checks.find((c) => c.type === 'dkim')?.status);
      return suggestDmarc(domain, detailsIn(checks, 'dmarc'), reportTo, authenticated);
    }
    case 'dkim':
      return suggestDkim(domain, detailsIn(checks, 'dkim'), mx);
    case 'blacklist':
      return { records: [], replaces: false, notes: [] };
  }
}

function CurrentRecord({ type, check }: { type: FixingGuideType; check: DomainCheck | undefined }) {
  let body: React.ReactNode = <p className="text-sm text-muted-foreground">No record found.</p>;
  if (type === 'spf' || type === 'dmarc') {
    const record = (check?.details as { record?: string | null } | undefined)?.record;
    if (record) body = <CopyValue label="Current record" value={record} />;
  } else if (type === 'dkim') {
    const keys = checkDetails(check, 'dkim')?.records ?? [];
    if (keys.length > 0)
      body = (
        <ul className="space-y-2">
          {keys.map((k) => (
            <li key={k.selector} className="space-y-1 text-sm">
              <span className="font-medium">Selector {k.selector}</span>
              <code className="block break-all rounded-md bg-muted px-2 py-1.5 font-mono text-xs">{k.record}</code>
            </li>
          ))}
        </ul>
      );
  } else {
    const listed = (checkDetails(check, 'blacklist')?.sites ?? []).filter((s) => s.status === 'listed');
    body = <p className="text-sm">{listed.length === 0 ? 'Not listed on any of the lists checked.' : `Listed on ${listed.map((s) => s.name).join(', ')}.`}</p>;
  }
  return (
    <Card data-testid="guide-current">
      <CardHeader>
        <CardTitle as="h3" className="text-lg">
          {type === 'blacklist' ? 'Current listings' : 'Current record'}
        </CardTitle>
      </CardHeader>
      <CardContent>{body}</CardContent>
    </Card>
  );
}

function SuggestedRecord({ suggestion }: { suggestion: Suggestion }) {
  return (
    <Card data-testid="guide-suggested">
      <CardHeader>
        <CardTitle as="h3" className="text-lg">
          Suggested record
        </CardTitle>
        <CardDescription>
          {suggestion.records.length === 0 ? 'What is published already does the job: there is nothing to change.' : suggestion.replaces ? 'Edit the existing record so it reads:' : 'Add this record:'}
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {suggestion.records.map((r) => (
          <dl key={r.host} className="grid grid-cols-1 gap-2 rounded-lg border p-3 text-sm sm:grid-cols-[5rem_1fr]" data-testid="suggested-record">
            <dt className="text-muted-foreground">Type</dt>
            <dd className="font-mono text-xs">{r.type}</dd>
            <dt className="text-muted-foreground">Host</dt>
            <dd>
              <CopyValue label="Host" value={r.host} />
            </dd>
            <dt className="text-muted-foreground">Value</dt>
            <dd>
              <CopyValue label="Value" value={r.value} />
            </dd>
          </dl>
        ))}
        {suggestion.notes.length > 0 ? (
          <ul className="list-disc space-y-1 pl-5 text-sm text-muted-foreground" data-testid="suggestion-notes">
            {suggestion.notes.map((n) => (
              <li key={n}>{n}</li>
            ))}
          </ul>
        ) : null}
      </CardContent>
    </Card>
  );
}

function ProviderSteps({ provider, onProvider, suggestion, domainName }: { provider: DnsProviderId; onProvider: (p: DnsProviderId) => void; suggestion: Suggestion; domainName: string }) {
  const p = dnsProviders[provider];
  return (
    <Card data-testid="guide-provider">
      <CardHeader>
        <CardTitle as="h3" className="text-lg">
          Publish it at your DNS provider
        </CardTitle>
      </CardHeader>
      <CardContent className="space-y-4 text-sm">
        <div className="max-w-xs space-y-1.5">
          <label htmlFor="dns-provider" className="font-medium">
            DNS provider
          </label>
          <NativeSelect id="dns-provider" value={provider} onChange={(e) => onProvider(e.target.value as DnsProviderId)}>
            {dnsProviderIds.map((id) => (
              <option key={id} value={id}>
                {dnsProviders[id].name}
              </option>
            ))}
          </NativeSelect>
        </div>
        {suggestion.records.map((record) => (
          <ol key={record.host} className="list-decimal space-y-1 pl-5" data-testid="provider-steps">
            {providerSteps(provider, record, domainName, suggestion.replaces).map((step) => (
              <li key={step}>{step}</li>
            ))}
          </ol>
        ))}
        {p.note ? <p className="text-muted-foreground">{p.note}</p> : null}
        {p.docsUrl ? (
          <a href={p.docsUrl} target="_blank" rel="noreferrer" className="inline-flex items-center gap-1 text-primary underline-offset-4 hover:underline">
            {p.name} documentation
            <ExternalLink className="h-3.5 w-3.5" aria-hidden="true" />
          </a>
        ) : null}
      </CardContent>
    </Card>
  );
}

function Delisting({ check }: { check: DomainCheck | undefined }) {
  const listed = (checkDetails(check, 'blacklist')?.sites ?? []).filter((s) => s.status === 'listed');
  return (
    <Card data-testid="guide-delisting">
      <CardHeader>
        <CardTitle as="h3" className="text-lg">
          Getting delisted
        </CardTitle>
      </CardHeader>
      <CardContent className="space-y-3 text-sm">
        <ol className="list-decimal space-y-1 pl-5">
          <li>Find what sent the mail that got listed: a compromised account, a web form, a server relaying for others.</li>
          <li>Fix it, and change the passwords of any account that sent spam.</li>
          <li>Request removal from each list below; then use Check again.</li>
        </ol>
        {listed.length > 0 ? (
          <ul className="space-y-2">
            {listed.map((s) => (
              <li key={s.name} className="flex flex-wrap items-center justify-between gap-2 rounded-lg border p-2.5">
                <span className="font-medium">{s.name}</span>
                {s.removalUrl ? (
                  <a href={s.removalUrl} target="_blank" rel="noreferrer" className="inline-flex items-center gap-1 text-primary underline-offset-4 hover:underline">
                    Request removal<span className="sr-only"> from {s.name}</span>
                    <ExternalLink className="h-3.5 w-3.5" aria-hidden="true" />
                  </a>
                ) : (
                  <span className="text-muted-foreground">Expires on its own</span>
                )}
              </li>
            ))}
          </ul>
        ) : null}
      </CardContent>
    </Card>
  );
}

/** "Check again": a scan of the domain, followed until done, then whether the fix is live (part 2 §8's toasts). */
function CheckAgain({ domainId, domainName, type }: { domainId: number; domainName: string; type: FixingGuideType }) {
  const scan = useScanDomain();
  const checks = useChecksByName(domainName);
  const [verdict, setVerdict] = useState<string | null>(null);
  const title = titleOf(type);
  const followed = useFollowedScan(domainId, (finished: ScanStatusAnswer) => {
    if (finished.status !== 'completed') {
      setVerdict(`The scan failed${finished.error ? `: ${finished.error}` : ''}. Please try again.`);
      return;
    }
    void checks.refetch().then((result) => {
      const now = result.data?.find((c) => c.type === type);
      const label = now ? checkRowLabel(type, now.status) : 'not checked';
      setVerdict(passes(now?.status) ? `The fix is live: ${title} now reads ${label}.` : `Not live yet: ${title} still reads ${label}. DNS changes take from 15 minutes to 24 hours; check again later.`);
    });
  });
  const busy = scan.isPending || followed.following;
  const onCheck = async () => {
    setVerdict(null);
    try {
      followed.follow(await scan.mutateAsync(domainId));
      toast({ title: 'Fix started', description: `Check back in a few minutes: ${domainName} is being scanned again.` });
    } catch {
      toast({ title: 'Error', description: 'Failed to start fix process. Please try again.', variant: 'destructive' });
    }
  };
  const status = scan.isPending ? 'starting' : followed.scan?.status;
  return (
    <Card data-testid="guide-check-again">
      <CardHeader className="gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div className="space-y-1.5">
          <CardTitle as="h3" className="text-lg">
            Is the fix live?
          </CardTitle>
          <CardDescription>Scan {domainName} again to see whether the change has reached DNS.</CardDescription>
        </div>
        <Button onClick={() => void onCheck()} disabled={busy}>
          <RefreshCw className={busy ? 'h-4 w-4 animate-spin' : 'h-4 w-4'} aria-hidden="true" />
          {busy ? 'Checking...' : 'Check again'}
        </Button>
      </CardHeader>
      {status || verdict ? (
        <CardContent className="space-y-3">
          {status ? <ScanProgress status={status} error={followed.scan?.error} /> : null}
          {verdict ? (
            <p role="status" className="text-sm font-medium" data-testid="fix-verdict">
              {verdict}
            </p>
          ) : null}
        </CardContent>
      ) : null}
    </Card>
  );
}
