import { currencyCatalogue, features, paidPlans, planRules, type Currency, type PlanType } from '@sendwell/contracts';
import { CheckCircle2, X } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Section } from '@/components/layout/section';
import { buttonClass } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { planHighlights, price, scanText } from '@/lib/pricing';
import { cn } from '@/lib/utils';

/** Pricing from the contracts' plan rules and currency catalogue (#pricing). */
export function Pricing({ currency }: { currency: Currency }) {
  return (
    <Section id="pricing" title="Simple monthly pricing" intro={`Prices in ${currencyCatalogue[currency].name}. 30-day money-back guarantee, no setup fees, cancel anytime.`}>
      <div className="grid grid-cols-1 gap-4 md:grid-cols-2 lg:grid-cols-4">
        <PlanCard name={planRules.free.label} price="Free" note="forever" items={['1 domain', 'Manual scans', 'All six checks']} to={paths.register} cta="Start free" />
        {paidPlans.map((plan) => (
          <PlanCard
            key={plan}
            name={planRules[plan].label}
            price={price(currency, plan)}
            note="per month"
            items={planHighlights(plan)}
            to={`${paths.register}?plan=${plan}`}
            cta={`Choose ${plan[0]!.toUpperCase()}${plan.slice(1)}`}
            featured={plan === 'standard'}
          />
        ))}
      </div>
      <FeatureTable />
    </Section>
  );
}

function PlanCard({ name, price, note, items, to, cta, featured }: { name: string; price: string; note: string; items: string[]; to: string; cta: string; featured?: boolean }) {
  return (
    <div className={cn('flex flex-col rounded-xl border bg-card p-6', featured && 'border-primary shadow-lg ring-1 ring-primary')}>
      {featured ? <span className="mb-2 self-start rounded-full bg-primary px-2.5 py-0.5 text-xs font-semibold text-primary-foreground">Most popular</span> : null}
      <h3 className="font-semibold">{name}</h3>
      <p className="mt-2">
        <span className="text-3xl font-extrabold">{price}</span> <span className="text-sm text-muted-foreground">{note}</span>
      </p>
      <ul className="mt-4 flex-1 space-y-2 text-sm">
        {items.map((i) => (
          <li key={i} className="flex gap-2">
            <CheckCircle2 className="mt-0.5 h-4 w-4 shrink-0 text-green-600" aria-hidden="true" /> {i}
          </li>
        ))}
      </ul>
      <Link to={to} className={buttonClass(featured ? 'default' : 'outline', 'default', 'mt-6 w-full')}>
        {cta}
      </Link>
    </div>
  );
}

const mark = (v: boolean | string): ReactNode =>
  typeof v === 'string' ? v : v ? <CheckCircle2 className="mx-auto h-5 w-5 text-green-600" aria-label="Included" /> : <X className="mx-auto h-5 w-5 text-muted-foreground" aria-label="Not included" />;

/**
 * The plans side by side. `inApp` (the signed-in plan screens) adds the row the in-app comparison
 * has and the public ones do not: domain reputation scoring under its name GMD, on advanced (part 2 §6).
 */
export function FeatureTable({ inApp = false }: { inApp?: boolean }) {
  const plans: PlanType[] = ['free', ...paidPlans];
  const rows: Array<[string, (p: PlanType) => boolean | string]> = [
    ['Domains', (p) => String(planRules[p].domainLimit)],
    ['Scan frequency', (p) => scanText(p).replace('Scans every ', 'Every ').replace('Manual scans', 'Manual')],
    ['Automated reports', (p) => planRules[p].automatedReports ?? false],
    ['Stored reports', (p) => (planRules[p].reportQuota === null ? false : String(planRules[p].reportQuota))],
    ['SPF, DKIM, DMARC, blacklist, SSL and DNS checks', () => true],
    ['Email alerts', (p) => features.alertEmails(p)],
    ['Reputation score and history', (p) => features.reputation(p)],
    ['SSL expiry and DNS change alerts', (p) => features.sslAndDnsChangeAlerts(p)],
    ['Inbox placement testing', (p) => features.inboxPlacement(p)],
    ['Slack, Teams, Zapier, Jira, PagerDuty', (p) => features.chatIntegrations(p)],
    ['Marketing platforms and custom webhooks', (p) => features.marketingIntegrations(p)],
    ['Priority support', (p) => features.prioritySupport(p)],
  ];
  if (inApp) rows.push(['GMD domain reputation scoring', (p) => p === 'advanced']);
  return (
    // Scrolls sideways on narrow screens, so it takes focus for keyboard scrolling.
    <div className="mt-12 overflow-x-auto rounded-xl border bg-card" tabIndex={0} role="region" aria-label="Compare plans">
      <table className="w-full min-w-[640px] text-sm">
        <caption className="p-4 text-left text-lg font-semibold">Compare plans</caption>
        <thead>
          <tr className="border-y bg-muted/50">
            <th scope="col" className="p-3 text-left">Feature</th>
            {plans.map((p) => (
              <th key={p} scope="col" className="p-3 text-center">
                {planRules[p].label.replace(' Monitoring', '')}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map(([label, value]) => (
            <tr key={label} className="border-b last:border-0">
              <th scope="row" className="p-3 text-left font-normal">{label}</th>
              {plans.map((p) => (
                <td key={p} className="p-3 text-center capitalize">
                  {mark(value(p))}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
