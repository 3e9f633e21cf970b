import { features, INTEGRATIONS_PLAN_MESSAGE, type IntegrationService } from '@sendwell/contracts';
import { CheckCircle2, Mail, MailCheck, Webhook } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button, buttonClass } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { ReadError } from '@/components/ui/read-error';
import { Skeleton } from '@/components/ui/skeleton';
import { paths } from '@/config/paths';
import { useUser } from '@/lib/auth/auth-provider';
import { useIntegrations, useWebhooks } from '../api/integrations';
import { IntegrationCard } from './integration-card';
import { WebhooksDialog } from './webhooks-dialog';

const communication: IntegrationService[] = ['slack', 'teams', 'discord'];
const operations: IntegrationService[] = ['zapier', 'pagerduty', 'jira'];
const marketing: IntegrationService[] = ['mailchimp', 'sendgrid', 'hubspot', 'constant contact'];

function Section({ title, description, children }: { title: string; description: string; children: ReactNode }) {
  return (
    <section className="space-y-3" aria-label={title}>
      <div>
        <h3 className="text-lg font-semibold">{title}</h3>
        <p className="text-sm text-muted-foreground">{description}</p>
      </div>
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-3">{children}</div>
    </section>
  );
}

/** /integrations (part 2 §2.16): every card reads Connected from the server list and works. */
export function IntegrationsPage() {
  const user = useUser();
  const plan = user.planType;
  const chat = features.chatIntegrations(plan);
  const advanced = features.customWebhooks(plan);
  const list = useIntegrations();
  const webhooks = useWebhooks(advanced);
  const [webhooksOpen, setWebhooksOpen] = useState(false);
  const entry = (service: IntegrationService) => list.data?.find((e) => e.service === service);
  const card = (service: IntegrationService, locked: boolean, lockedLabel: string) => (
    <IntegrationCard key={service} service={service} entry={entry(service)} locked={locked} lockedLabel={lockedLabel} />
  );
  const activeWebhooks = webhooks.data?.filter((w) => w.enabled).length ?? 0;

  return (
    <div className="mx-auto max-w-6xl space-y-8">
      <div className="min-w-0 flex-1 basis-40 space-y-1">
        <h2 className="text-2xl font-bold tracking-tight">Integrations</h2>
        <p className="text-sm text-muted-foreground">Send alerts where your team works, and connect your email tools.</p>
      </div>

      {chat ? null : (
        <Alert title="Upgrade required">
          <p>{INTEGRATIONS_PLAN_MESSAGE}</p>
          <Link to={paths.subscription} className={buttonClass('default', 'sm', 'mt-3')}>
            Upgrade your plan
          </Link>
        </Alert>
      )}

      {/* The cards say Connected or Not Connected from the server list, so they wait for it and never guess. */}
      {list.isPending ? (
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-3" aria-busy="true" aria-label="Loading integrations" data-testid="integrations-loading">
          {Array.from({ length: 6 }, (_, i) => (
            <Skeleton key={i} className="h-40 rounded-xl" />
          ))}
        </div>
      ) : list.isError && !list.data ? (
        <ReadError
          testId="integrations-read-error"
          title="Couldn't load your integrations."
          message="Which services are connected could not be read just now."
          retrying={list.isFetching}
          onRetry={() => void list.refetch()}
        />
      ) : (
        <>
          <Section title="Communication & Alerts" description="Alerts go to every channel you connect, as soon as they are raised and again when resolved.">
            <Card className={chat ? undefined : 'border-dashed bg-muted/40'} data-testid="integration-email">
              <CardHeader className="flex-row flex-wrap items-start justify-between gap-2 space-y-0">
                <div className="min-w-0 flex-1 basis-40 space-y-1">
                  <CardTitle as="h3" className="flex items-center gap-2 text-base">
                    <Mail className="h-4 w-4" aria-hidden="true" /> Email Notifications
                  </CardTitle>
                  <CardDescription>
                    Alerts go to <span className="break-all">{user.email}</span>.
                  </CardDescription>
                </div>
                {chat ? <Badge className="shrink-0 whitespace-nowrap normal-case">Active</Badge> : <Badge variant="outline" className="shrink-0 whitespace-nowrap normal-case">Standard Plan Required</Badge>}
              </CardHeader>
              <CardFooter>
                <Link to={`${paths.settings}?tab=notifications`} className={buttonClass('outline', 'sm')}>
                  Configure Settings
                </Link>
              </CardFooter>
            </Card>
            {communication.map((s) => card(s, !chat, 'Advanced Plan Required'))}
          </Section>

          <Section title="Developer & Operations Tools" description="Incidents, automations and issue tracking.">
            {operations.map((s) => card(s, !chat, 'Standard Plan Required'))}
            <Card data-testid="integration-webhooks" className={advanced ? undefined : 'border-dashed bg-muted/40'}>
              <CardHeader className="flex-row flex-wrap items-start justify-between gap-2 space-y-0">
                <div className="min-w-0 flex-1 basis-40 space-y-1">
                  <CardTitle as="h3" className="flex items-center gap-2 text-base">
                    <Webhook className="h-4 w-4" aria-hidden="true" /> Custom Webhooks
                  </CardTitle>
                  <CardDescription>Signed JSON events to your own endpoints.</CardDescription>
                </div>
                {advanced ? <Badge variant="secondary" className="shrink-0 whitespace-nowrap normal-case">{activeWebhooks} active webhooks</Badge> : <Badge variant="outline" className="shrink-0 whitespace-nowrap normal-case">Advanced Plan Required</Badge>}
              </CardHeader>
              {advanced ? (
                <CardFooter>
                  <Button size="sm" variant="outline" onClick={() => setWebhooksOpen(true)}>
                    Manage Webhooks
                  </Button>
                  <WebhooksDialog open={webhooksOpen} onOpenChange={setWebhooksOpen} />
                </CardFooter>
              ) : null}
            </Card>
          </Section>

          <Section title="Other Integrations" description="Tools built into Sendwell.">
            <Card data-testid="integration-email-verification">
              <CardHeader className="flex-row flex-wrap items-start justify-between gap-2 space-y-0">
                <div className="min-w-0 flex-1 basis-40 space-y-1">
                  <CardTitle as="h3" className="flex items-center gap-2 text-base">
                    <MailCheck className="h-4 w-4" aria-hidden="true" /> Email Verification
                  </CardTitle>
                  <CardDescription>Check whether an address is safe to send to.</CardDescription>
                </div>
                <Badge className="shrink-0 whitespace-nowrap normal-case">Connected</Badge>
              </CardHeader>
              <CardFooter>
                <Link to={paths.emailVerification} className={buttonClass('outline', 'sm')}>
                  Open Email Verification
                </Link>
              </CardFooter>
            </Card>
          </Section>

          <Section title="Email Marketing" description="Share your domains' health with your marketing platform.">
            {marketing.map((s) => card(s, !advanced, 'Advanced Plan Required'))}
          </Section>
        </>
      )}

      <Card>
        <CardHeader>
          <CardTitle as="h3" className="text-base">
            Integration Guide
          </CardTitle>
        </CardHeader>
        <CardContent>
          <ul className="space-y-2 text-sm">
            {[
              'Slack and Discord: create a bot, invite it to the channel, and paste its token and the channel ID.',
              'Microsoft Teams and Zapier: paste the incoming webhook or catch-hook URL.',
              'PagerDuty: use an Events API v2 integration key; incidents resolve themselves when the problem clears.',
              'After saving, use “Send test alert” to check the connection; the card shows the last delivery.',
              'Choose which alert types you get in Settings → Notifications.',
            ].map((tip) => (
              <li key={tip} className="flex gap-2">
                <CheckCircle2 className="mt-0.5 h-4 w-4 shrink-0 text-primary" aria-hidden="true" />
                {tip}
              </li>
            ))}
          </ul>
        </CardContent>
      </Card>
    </div>
  );
}
