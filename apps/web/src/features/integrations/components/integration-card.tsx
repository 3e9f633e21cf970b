import type { IntegrationListEntry, IntegrationService } from '@sendwell/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { toast } from '@/components/ui/toast-store';
import { errorMessage } from '@/lib/api-client';
import { relativeTime } from '@/lib/display';
import { integrationsQueryOptions, removeIntegration, testIntegration } from '../api/integrations';
import { serviceInfo } from '../lib/services';
import { ConfigureDialog } from './configure-dialog';

/** The delivery log line under a connected card: the last outcome, or the reason it failed. */
export function DeliveryLog({ lastStatus, lastError, lastDeliveryAt }: Pick<IntegrationListEntry, 'lastStatus' | 'lastError' | 'lastDeliveryAt'>) {
  if (!lastStatus && !lastError) return null;
  const when = lastDeliveryAt ? ` ${relativeTime(lastDeliveryAt).toLowerCase()}` : '';
  return lastStatus === 'failed' ? (
    <p className="text-xs text-destructive" data-testid="delivery-error">
      Last delivery failed{when}: {lastError}
    </p>
  ) : (
    <p className="text-xs text-muted-foreground">Last alert delivered{when}.</p>
  );
}

/** A service card: status from the server list, configure dialog, test alert and disconnect. */
export function IntegrationCard({ service, entry, locked, lockedLabel }: { service: IntegrationService; entry: IntegrationListEntry | undefined; locked: boolean; lockedLabel: string }) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const queryClient = useQueryClient();
  const { name, description } = serviceInfo[service];
  const connected = entry?.configured === true;
  const refresh = () => queryClient.invalidateQueries({ queryKey: integrationsQueryOptions().queryKey });

  async function run(action: () => Promise<void>) {
    setBusy(true);
    try {
      await action();
    } finally {
      setBusy(false);
      await refresh();
    }
  }

  const sendTest = () =>
    run(async () => {
      try {
        const answer = await testIntegration(service);
        toast({ title: answer.delivered ? 'Test Alert Sent' : 'Test Alert Failed', description: answer.message, variant: answer.delivered ? 'default' : 'destructive' });
      } catch (error) {
        toast({ title: 'Test Alert Failed', description: errorMessage(error, 'Failed to send the test alert.'), variant: 'destructive' });
      }
    });
  const disconnect = () =>
    run(async () => {
      if (!window.confirm(`Disconnect ${name}? Alerts will stop going there.`)) return;
      try {
        toast({ title: 'Integration Removed', description: (await removeIntegration(service)).message });
      } catch (error) {
        toast({ title: 'Error', description: errorMessage(error, 'Failed to remove the integration.'), variant: 'destructive' });
      }
    });

  return (
    <Card className={locked ? 'border-dashed bg-muted/40' : undefined} data-testid={`integration-${service.replace(' ', '-')}`} aria-disabled={locked || undefined}>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-2 space-y-0">
        <div className="min-w-0 flex-1 basis-40 space-y-1">
          <CardTitle as="h3" className="text-base">
            {name}
          </CardTitle>
          <CardDescription>{description}</CardDescription>
        </div>
        {locked ? <Badge variant="outline" className="shrink-0 whitespace-nowrap normal-case">{lockedLabel}</Badge> : <Badge variant={connected ? 'default' : 'secondary'} className="shrink-0 whitespace-nowrap normal-case">{connected ? 'Connected' : 'Not Connected'}</Badge>}
      </CardHeader>
      <CardContent>{connected && entry ? <DeliveryLog lastStatus={entry.lastStatus} lastError={entry.lastError} lastDeliveryAt={entry.lastDeliveryAt} /> : null}</CardContent>
      {locked ? null : (
        <CardFooter className="flex flex-wrap gap-2">
          <Button variant={connected ? 'outline' : 'default'} size="sm" onClick={() => setOpen(true)}>
            {connected ? 'Reconfigure' : 'Configure'}
          </Button>
          {connected ? (
            <>
              <Button variant="outline" size="sm" onClick={sendTest} disabled={busy}>
                Send test alert
              </Button>
              <Button variant="ghost" size="sm" onClick={disconnect} disabled={busy}>
                Disconnect
              </Button>
            </>
          ) : null}
          <ConfigureDialog service={service} open={open} onOpenChange={setOpen} />
        </CardFooter>
      )}
    </Card>
  );
}
