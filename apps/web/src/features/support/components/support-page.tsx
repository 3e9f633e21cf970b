import { features } from '@sendwell/contracts';
import { useQuery } from '@tanstack/react-query';
import { BookOpen, Activity, Mail } from 'lucide-react';
import { Link } from 'react-router';
import { buttonClass } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { UpgradeRequiredScreen } from '@/components/ui/upgrade-required-screen';
import { paths } from '@/config/paths';
import { SUPPORT_EMAIL } from '@/config/support';
import { useUser } from '@/lib/auth/auth-provider';

const faq: Array<{ q: string; a: string }> = [
  { q: 'Why does DKIM show as missing when my mail is signed?', a: 'Sendwell looks for the selectors of common providers. If yours uses another selector, open a message you sent, find the s= value in its DKIM-Signature header, and tell us: we will check it for you.' },
  { q: 'I fixed a record. When will Sendwell see it?', a: 'Run Scan Now on the domain (once every 5 minutes). DNS changes can take from 15 minutes to 24 hours to reach every resolver, depending on the record’s TTL.' },
  { q: 'A blacklist lists my server. What now?', a: 'Find what sent the spam (a compromised account, a form, an old mailing list) and stop it first, then follow the removal link in the blacklist section. Most lists delist within a day once the traffic stops.' },
  { q: 'Why is my score lower than last week?', a: 'The trend on the domain page and the DNS changes in a full report show what changed between scans. A weakened DMARC policy, a new listing or a slow name server all lower the score.' },
  { q: 'How do I stop the report emails?', a: 'Settings → Notifications → Report emails. Reports are still generated and listed on the Reports screen.' },
];

/** The gateway answers /health while it is up; the card says so, with the time it was checked. */
function useServiceStatus() {
  return useQuery({
    queryKey: ['/health'],
    queryFn: async () => {
      const res = await fetch('/health', { cache: 'no-store' });
      return { up: res.ok, checkedAt: new Date() };
    },
    refetchInterval: 60_000,
    retry: false,
  });
}

/** /support (part 1): email support, the documentation, service status, an FAQ and how to write to us. Paid plans only. */
export function SupportPage() {
  const user = useUser();
  if (!features.support(user.planType)) {
    return (
      <>
        <UpgradeRequiredScreen description="Help from our team by email, with priority replies on the Advanced plan, is available on paid plans. Upgrade to unlock:" />
        {/* The documentation is open on every plan: this is a free user's way to it. */}
        <p className="text-center text-sm text-muted-foreground" data-testid="support-documentation">
          The guides are open on every plan:{' '}
          <Link to={paths.documentation} className="font-medium text-primary underline-offset-4 hover:underline">
            Read the Documentation
          </Link>
        </p>
      </>
    );
  }
  return <Support priority={features.prioritySupport(user.planType)} />;
}

function Support({ priority }: { priority: boolean }) {
  const status = useServiceStatus();
  const up = status.data?.up;
  return (
    <div className="mx-auto max-w-5xl space-y-8">
      <div className="space-y-1">
        <h2 className="text-2xl font-bold tracking-tight">Help & Support</h2>
        <p className="text-sm text-muted-foreground">Answers to common questions, the documentation, and a person when you need one.</p>
      </div>
      <div className="grid grid-cols-1 gap-4 md:grid-cols-3">
        <Card data-testid="support-email">
          <CardHeader>
            <CardTitle as="h3" className="flex items-center gap-2 text-base">
              <Mail className="h-4 w-4" aria-hidden="true" /> Email support
            </CardTitle>
            <CardDescription>{priority ? 'Priority support: we reply within 4 business hours.' : 'We reply within one business day.'}</CardDescription>
          </CardHeader>
          <CardContent>
            <a className={buttonClass('default', 'sm')} href={`mailto:${SUPPORT_EMAIL}?subject=${encodeURIComponent('Sendwell support')}`}>
              Email {SUPPORT_EMAIL}
            </a>
          </CardContent>
        </Card>
        <Card data-testid="support-docs">
          <CardHeader>
            <CardTitle as="h3" className="flex items-center gap-2 text-base">
              <BookOpen className="h-4 w-4" aria-hidden="true" /> Documentation
            </CardTitle>
            <CardDescription>What each check means, how the score is computed, alerts and reports.</CardDescription>
          </CardHeader>
          <CardContent>
            <Link className={buttonClass('outline', 'sm')} to={paths.documentation}>
              Read the documentation
            </Link>
          </CardContent>
        </Card>
        <Card data-testid="support-status">
          <CardHeader>
            <CardTitle as="h3" className="flex items-center gap-2 text-base">
              <Activity className="h-4 w-4" aria-hidden="true" /> Service status
            </CardTitle>
            <CardDescription>Checked every minute while this page is open.</CardDescription>
          </CardHeader>
          <CardContent>
            <p className="flex items-center gap-2 text-sm font-medium" role="status">
              <span className={`h-2.5 w-2.5 rounded-full ${up === undefined ? 'bg-muted-foreground' : up ? 'bg-green-600' : 'bg-destructive'}`} aria-hidden="true" />
              {up === undefined ? 'Checking…' : up ? 'All systems operational' : 'Sendwell is not answering right now'}
            </p>
            {status.data ? <p className="mt-1 text-xs text-muted-foreground">Last checked {status.data.checkedAt.toLocaleTimeString()}</p> : null}
          </CardContent>
        </Card>
      </div>

      <section aria-labelledby="faq-title" className="space-y-3">
        <h3 id="faq-title" className="text-lg font-semibold">
          Frequently asked questions
        </h3>
        {faq.map((item) => (
          <details key={item.q} className="rounded-md border bg-card px-4 py-3">
            <summary className="cursor-pointer font-medium">{item.q}</summary>
            <p className="mt-2 text-sm text-muted-foreground">{item.a}</p>
          </details>
        ))}
      </section>

      <section aria-labelledby="contact-title" className="space-y-2">
        <h3 id="contact-title" className="text-lg font-semibold">
          When you write to us
        </h3>
        <ul className="list-disc space-y-1 pl-5 text-sm text-muted-foreground">
          <li>Name the domain and, for a scan result, the time of the scan (it is on the domain’s history).</li>
          <li>Paste the record you published, or attach a report (Reports → Download).</li>
          <li>Never send a password, an API key or a bot token: we will never ask for one.</li>
        </ul>
      </section>
    </div>
  );
}
