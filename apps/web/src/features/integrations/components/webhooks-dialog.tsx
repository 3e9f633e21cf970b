import { WEBHOOK_SIGNATURE_HEADER, type CreateWebhookAnswer } from '@sendwell/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { toast } from '@/components/ui/toast-store';
import { errorMessage } from '@/lib/api-client';
import { createWebhook, deleteWebhook, testWebhook, useWebhooks, webhooksQueryOptions } from '../api/integrations';
import { DeliveryLog } from './integration-card';

/** Custom webhooks (advanced): the endpoints, adding one (its signing secret shown once), testing and removing. */
export function WebhooksDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const webhooks = useWebhooks(open);
  const queryClient = useQueryClient();
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [created, setCreated] = useState<CreateWebhookAnswer | null>(null);
  const [busy, setBusy] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: webhooksQueryOptions().queryKey });

  async function add(event: FormEvent) {
    event.preventDefault();
    if (!url.trim() || busy) return;
    setBusy(true);
    try {
      setCreated(await createWebhook(url.trim(), description.trim()));
      setUrl('');
      setDescription('');
      await refresh();
    } catch (error) {
      toast({ title: 'Webhook Not Added', description: errorMessage(error, 'Failed to add the webhook.'), variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  }

  async function act(action: () => Promise<void>) {
    setBusy(true);
    try {
      await action();
    } catch (error) {
      toast({ title: 'Error', description: errorMessage(error, 'The webhook call failed.'), variant: 'destructive' });
    } finally {
      setBusy(false);
      await refresh();
    }
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) setCreated(null);
        onOpenChange(next);
      }}
    >
      <DialogContent className="max-h-[90vh] max-w-2xl overflow-y-auto">
        <DialogHeader>
          <DialogTitle>Custom Webhooks</DialogTitle>
          <DialogDescription>
            Sendwell POSTs a JSON event to each endpoint when an alert is raised or resolved, retrying for 24 hours until it answers 2xx.
          </DialogDescription>
        </DialogHeader>

        {created ? (
          <Alert variant="success" title="Webhook added: copy its signing secret now">
            <p className="mb-2">It will not be shown again.</p>
            <div className="flex items-center gap-2">
              <code className="min-w-0 flex-1 break-all rounded bg-muted px-2 py-1 text-xs" data-testid="webhook-secret">
                {created.secret}
              </code>
              <Button size="sm" variant="outline" onClick={() => void navigator.clipboard?.writeText(created.secret)}>
                Copy
              </Button>
            </div>
          </Alert>
        ) : null}

        <ul className="divide-y rounded-lg border" aria-label="Webhook endpoints">
          {webhooks.data?.length ? (
            webhooks.data.map((w) => (
              <li key={w.id} className="flex flex-wrap items-start justify-between gap-2 p-3">
                <div className="min-w-0 space-y-1">
                  <p className="break-all text-sm font-medium">{w.url}</p>
                  {w.description ? <p className="text-xs text-muted-foreground">{w.description}</p> : null}
                  <DeliveryLog lastStatus={w.lastStatus} lastError={w.lastError} lastDeliveryAt={w.lastDeliveryAt} />
                </div>
                <div className="flex gap-2">
                  <Button
                    size="sm"
                    variant="outline"
                    disabled={busy}
                    onClick={() =>
                      act(async () => {
                        const answer = await testWebhook(w.id);
                        toast({ title: answer.delivered ? 'Test Alert Sent' : 'Test Alert Failed', description: answer.message, variant: answer.delivered ? 'default' : 'destructive' });
                      })
                    }
                  >
                    Send test alert
                  </Button>
                  <Button size="sm" variant="ghost" disabled={busy} onClick={() => act(async () => void (await deleteWebhook(w.id)))}>
                    Delete
                  </Button>
                </div>
              </li>
            ))
          ) : (
            <li className="p-3 text-sm text-muted-foreground">{webhooks.isPending ? 'Loading…' : 'No webhooks yet.'}</li>
          )}
        </ul>

        <form onSubmit={add} className="grid grid-cols-1 gap-3 sm:grid-cols-[2fr_1fr_auto] sm:items-end">
          <FormField label="Endpoint URL">
            <Input type="url" placeholder="https://example.com/hooks/sendwell" value={url} onChange={(e) => setUrl(e.target.value)} />
          </FormField>
          <FormField label="Description">
            <Input placeholder="Optional" value={description} onChange={(e) => setDescription(e.target.value)} />
          </FormField>
          <Button type="submit" disabled={!url.trim() || busy}>
            Add webhook
          </Button>
        </form>

        <details className="text-sm text-muted-foreground">
          <summary className="cursor-pointer font-medium text-foreground">Verifying deliveries</summary>
          <p className="mt-2">
            Each request carries <code>{WEBHOOK_SIGNATURE_HEADER}: t=…,v1=…</code>. Compute HMAC-SHA256 of <code>{'"{t}.{raw body}"'}</code> with your secret, compare it
            with <code>v1</code> in constant time, and refuse timestamps older than five minutes. Every retry of one event has the same <code>id</code>.
          </p>
        </details>
      </DialogContent>
    </Dialog>
  );
}
