import { checkRows, mailCheckRows, type DomainCheck, type Finding } from '@sendwell/contracts';
import { checkBadgeVariant, checkRowLabel, isFixingGuideType } from '@/lib/display';
import { AlertCircle, AlertTriangle, Info, Wrench } from 'lucide-react';
import { Link } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { buttonClass } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';

const severityIcon = { error: AlertCircle, warning: AlertTriangle, info: Info } as const;
const severityTone = { error: 'text-destructive', warning: 'text-amber-600 dark:text-amber-400', info: 'text-muted-foreground' } as const;

const fixingGuidePath = (name: string, type: string) => `/fixing-guide/${encodeURIComponent(name)}/${type}`;
const passed = (status: string) => status === 'valid' || status === 'success';

function findingsOf(check: DomainCheck): Finding[] {
  const raw = (check.details as { findings?: unknown }).findings;
  return Array.isArray(raw) ? (raw as Finding[]) : [];
}

const groups = {
  core: { rows: checkRows, title: 'Health Checks', description: 'What each check found, with the standard it rests on.', testId: 'check-findings' },
  mail: {
    rows: mailCheckRows,
    title: 'Mail Transport',
    description: 'How mail reaches the domain and how far its DNS can be trusted: STARTTLS, MTA-STS, DANE and TLS reporting for its MX hosts, DNSSEC, the reverse DNS of its sending addresses, and its BIMI logo.',
    testId: 'mail-check-findings',
  },
} as const;

/**
 * One group's checks with their findings (severity, message, RFC clause) and, for SPF/DKIM/DMARC/
 * blacklist, a fix link: the six core checks, or the mail checks (nothing when a scan has none of them).
 */
export function CheckFindings({ domainName, checks, group = 'core' }: { domainName: string; checks: readonly DomainCheck[]; group?: keyof typeof groups }) {
  const { rows, title, description, testId } = groups[group];
  const ordered = rows.map((row) => ({ row, check: checks.find((c) => c.type === row.type) })).filter((x) => x.check);
  if (group === 'mail' && ordered.length === 0) return null;
  return (
    <Card data-testid={testId}>
      <CardHeader>
        <CardTitle as="h2" className="text-lg">
          {title}
        </CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent className="space-y-3">
        {ordered.map(({ row, check }) => {
          const c = check!;
          const findings = findingsOf(c);
          const canFix = isFixingGuideType(c.type) && !passed(c.status);
          return (
            <section key={c.type} aria-labelledby={`check-${c.type}`} className="rounded-lg border p-4" data-testid={`check-${c.type}`}>
              <div className="flex flex-wrap items-center justify-between gap-2">
                <h3 id={`check-${c.type}`} className="font-semibold">
                  {row.title}
                </h3>
                <div className="flex items-center gap-2">
                  <Badge variant={checkBadgeVariant(c.status)}>{checkRowLabel(c.type, c.status)}</Badge>
                  {canFix ? (
                    <Link to={fixingGuidePath(domainName, c.type)} className={buttonClass('outline', 'sm', 'h-8')} aria-label={`Fix ${row.title}`}>
                      <Wrench className="h-3.5 w-3.5" aria-hidden="true" />
                      Fix
                    </Link>
                  ) : null}
                </div>
              </div>
              {c.message ? <p className="mt-2 text-sm text-muted-foreground wrap-anywhere">{c.message}</p> : null}
              {c.value ? <code className="mt-2 block break-all rounded-md bg-muted px-2 py-1.5 font-mono text-xs">{c.value}</code> : null}
              {findings.length > 0 ? (
                <ul className="mt-3 space-y-2">
                  {findings.map((f, i) => {
                    const Icon = severityIcon[f.severity] ?? Info;
                    return (
                      <li key={`${f.code}-${i}`} className="flex gap-2 text-sm" data-testid="finding">
                        <Icon className={`mt-0.5 h-4 w-4 shrink-0 ${severityTone[f.severity] ?? ''}`} aria-hidden="true" />
                        <div className="min-w-0 wrap-anywhere">
                          <p>
                            <span className="sr-only">{f.severity}: </span>
                            {f.message}
                            {f.rfc ? <span className="ml-2 rounded bg-muted px-1.5 py-0.5 text-xs text-muted-foreground wrap-anywhere">{f.rfc}</span> : null}
                          </p>
                          {f.recommendation ? <p className="text-xs text-muted-foreground">{f.recommendation}</p> : null}
                        </div>
                      </li>
                    );
                  })}
                </ul>
              ) : null}
              {c.recommendation && findings.length === 0 ? <p className="mt-2 text-sm wrap-anywhere">{c.recommendation}</p> : null}
            </section>
          );
        })}
      </CardContent>
    </Card>
  );
}
