import { AlertTriangle, BarChart3, Bell, CheckCircle2, FileText, Gauge, History, KeyRound, Lock, Mail, Server, ShieldCheck, Wrench, X } from 'lucide-react';
import type { ReactNode } from 'react';
import { Section } from '@/components/layout/section';

/** Fixed text of part 2 §9. */
export function StatsTiles() {
  const stats = [
    { value: '43', label: 'active users' },
    { value: '102', label: 'issues resolved' },
    { value: '58', label: 'sites monitored' },
  ];
  return (
    <section aria-label="Statistics" className="px-4 py-10">
      <dl className="mx-auto grid max-w-4xl grid-cols-1 gap-4 sm:grid-cols-3">
        {stats.map((s) => (
          <div key={s.label} className="flex flex-col rounded-xl border bg-card p-6 text-center">
            <dt className="text-sm text-muted-foreground">{s.label}</dt>
            <dd className="order-first text-4xl font-extrabold text-primary">{s.value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

const yes = <CheckCircle2 className="mx-auto h-5 w-5 text-green-600" aria-label="Included" />;
const no = <X className="mx-auto h-5 w-5 text-muted-foreground" aria-label="Not included" />;

export function PaidVsFree() {
  const rows: Array<[string, ReactNode, ReactNode]> = [
    ['Six-point domain health check', yes, yes],
    ['Domains', '1', 'Up to 10'],
    ['Scans', 'Manual', 'Automatic, every 4 h to 15 min'],
    ['Email alerts', no, yes],
    ['Automated reports', no, yes],
    ['Reputation score and history', no, 'Standard and up'],
  ];
  return (
    <Section title="Free check or full monitoring?" intro="Start free. Upgrade when you want Sendwell to keep watch for you.">
      <div className="mx-auto max-w-3xl overflow-x-auto rounded-xl border bg-card" tabIndex={0} role="region" aria-label="Free and paid plans">
        <table className="w-full text-sm">
          <thead>
            <tr className="border-b bg-muted/50">
              <th scope="col" className="p-3 text-left font-semibold">Feature</th>
              <th scope="col" className="p-3 font-semibold">Free</th>
              <th scope="col" className="p-3 font-semibold">Paid plans</th>
            </tr>
          </thead>
          <tbody>
            {rows.map(([label, free, paid]) => (
              <tr key={label} className="border-b last:border-0">
                <th scope="row" className="p-3 text-left font-normal">{label}</th>
                <td className="p-3 text-center">{free}</td>
                <td className="p-3 text-center">{paid}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Section>
  );
}

export function Testimonial() {
  return (
    <section aria-label="Testimonial" className="render-when-visible bg-primary px-4 py-14 text-primary-foreground">
      <figure className="mx-auto max-w-3xl text-center">
        <blockquote className="text-xl font-medium leading-relaxed sm:text-2xl">
          “Our invoices were quietly going to spam. Sendwell showed us a broken SPF include and a missing DMARC record on day one, and
          we were back in the inbox the same afternoon.”
        </blockquote>
        <figcaption className="mt-4 text-sm opacity-90">Operations lead, online retailer</figcaption>
      </figure>
    </section>
  );
}

/** A static picture of a domain card, as the product shows it. */
export function ExampleDomainCard() {
  const rows = [
    ['SPF Record', 'Valid'],
    ['DKIM', 'Valid'],
    ['DMARC', 'Warning'],
    ['Blacklists', 'Clean'],
    ['SSL Certificate', 'Valid'],
    ['DNS Performance', 'Excellent'],
  ];
  return (
    <Section title="See your domain at a glance" intro="Every domain gets a card like this one, refreshed on every scan." muted>
      <figure className="mx-auto max-w-md rounded-xl border bg-card p-6 shadow-sm">
        <div className="flex items-center justify-between">
          <span className="font-semibold">yourcompany.com</span>
          <span className="rounded-full border px-2.5 py-0.5 text-xs font-semibold">warning</span>
        </div>
        <ul className="mt-4 divide-y text-sm">
          {rows.map(([label, value]) => (
            <li key={label} className="flex justify-between py-2">
              <span className="text-muted-foreground">{label}</span>
              <span className="font-medium">{value}</span>
            </li>
          ))}
        </ul>
        <figcaption className="mt-3 text-xs text-muted-foreground">Example card: Last checked: 12m ago</figcaption>
      </figure>
    </Section>
  );
}

export function Features() {
  const items = [
    { icon: KeyRound, title: 'SPF', text: 'Full RFC 7208 evaluation: includes, the 10-lookup limit, void lookups and the IPs you actually authorise.' },
    { icon: Lock, title: 'DKIM', text: 'Finds your signing keys under common selectors and checks their strength and syntax.' },
    { icon: ShieldCheck, title: 'DMARC', text: 'Reads your policy, alignment and reporting addresses and explains how strict you really are.' },
    { icon: AlertTriangle, title: 'Blacklists', text: 'Over 20 IP blocklists plus domain lists, with lookup and removal links for every listing.' },
    { icon: Server, title: 'SSL and DNS', text: 'Certificate validity and expiry, DNS response times and changes to your records.' },
    { icon: Gauge, title: 'Reputation score', text: 'A 0–100 score with its breakdown and trend, recalculated daily (Standard and Advanced).' },
    { icon: Bell, title: 'Alerts', text: 'Hear about a listing, an expiring certificate or a DNS change before your customers do.' },
    { icon: FileText, title: 'Reports', text: 'Automated PDF reports for your team or clients, monthly, fortnightly or weekly.' },
    { icon: History, title: 'History', text: 'Every scan is kept, so you can see when something changed and what it looked like before.' },
    { icon: Wrench, title: 'Fixing guides', text: 'Step-by-step instructions for your DNS provider for every failing check.' },
  ];
  return (
    <Section id="features" title="Everything that decides where your email lands" muted>
      <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {items.map(({ icon: Icon, title, text }) => (
          <li key={title} className="rounded-xl border bg-card p-5">
            <Icon className="h-6 w-6 text-primary" aria-hidden="true" />
            <h3 className="mt-3 font-semibold">{title}</h3>
            <p className="mt-1 text-sm text-muted-foreground">{text}</p>
          </li>
        ))}
      </ul>
    </Section>
  );
}

function LogoGrid({ names }: { names: string[] }) {
  return (
    <ul className="flex flex-wrap justify-center gap-3">
      {names.map((n) => (
        <li key={n} className="rounded-lg border bg-card px-4 py-2 text-sm font-medium">
          {n}
        </li>
      ))}
    </ul>
  );
}

export function Integrations() {
  return (
    <Section title="Alerts where your team already works" intro="Send alerts to chat, on-call and ticketing tools (Standard and Advanced).">
      <LogoGrid names={['Slack', 'Microsoft Teams', 'Discord', 'Zapier', 'Jira', 'PagerDuty']} />
    </Section>
  );
}

export function MarketingPlatforms() {
  return (
    <Section title="Built for marketing platforms too" intro="Connect the platforms you send campaigns from, or any system through custom webhooks (Advanced)." muted>
      <LogoGrid names={['Mailchimp', 'SendGrid', 'HubSpot', 'Constant Contact', 'Custom webhooks']} />
    </Section>
  );
}

export function SignupSteps() {
  const steps = [
    { icon: Mail, title: 'Create your free account', text: 'Sign up with your email and confirm it with the link we send you.' },
    { icon: BarChart3, title: 'Add your domain', text: 'Enter the domain you send email from; the first scan starts right away.' },
    { icon: Wrench, title: 'Fix what we find', text: 'Follow the guides for anything flagged, then let Sendwell keep watch.' },
  ];
  return (
    <Section title="Get started in 3 steps">
      <ol className="grid grid-cols-1 gap-6 sm:grid-cols-3">
        {steps.map(({ icon: Icon, title, text }, i) => (
          <li key={title} className="rounded-xl border bg-card p-6 text-center">
            <span className="mx-auto flex h-10 w-10 items-center justify-center rounded-full bg-primary text-lg font-bold text-primary-foreground">
              {i + 1}
            </span>
            <Icon className="mx-auto mt-4 h-6 w-6 text-primary" aria-hidden="true" />
            <h3 className="mt-2 font-semibold">{title}</h3>
            <p className="mt-1 text-sm text-muted-foreground">{text}</p>
          </li>
        ))}
      </ol>
    </Section>
  );
}
