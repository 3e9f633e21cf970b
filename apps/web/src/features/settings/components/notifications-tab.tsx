import { alertTypeLabels, alertTypes, features, type AlertType, type NotificationPreferences } from '@sendwell/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { Switch } from '@/components/ui/switch';
import { toast } from '@/components/ui/toast-store';
import { errorMessage } from '@/lib/api-client';
import { preferencesQueryOptions, savePreferences, usePreferences } from '../api/notification-preferences';

function Toggle({ label, description, checked, disabled, onChange }: { label: string; description: string; checked: boolean; disabled?: boolean; onChange: (v: boolean) => void }) {
  const id = useId();
  return (
    <div className="flex items-center justify-between gap-4 py-3">
      <div>
        <label htmlFor={id} className="text-sm font-medium">
          {label}
        </label>
        <p id={`${id}-d`} className="text-xs text-muted-foreground">
          {description}
        </p>
      </div>
      <Switch id={id} aria-describedby={`${id}-d`} checked={checked} disabled={disabled} onCheckedChange={onChange} />
    </div>
  );
}

/** Settings → Notifications: what Sendwell delivers, saved on the server (the notify worker obeys it). */
export function NotificationsTab({ plan }: { plan: string }) {
  const saved = usePreferences();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<NotificationPreferences | null>(null);
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    if (saved.data && !draft) setDraft(saved.data);
  }, [saved.data, draft]);

  if (!draft) {
    return (
      <Card>
        <CardContent className="space-y-3 pt-6">
          {saved.isError ? <p className="text-sm text-destructive">{errorMessage(saved.error, 'Failed to load your notification preferences.')}</p> : <Skeleton className="h-40 w-full" />}
        </CardContent>
      </Card>
    );
  }

  const set = (patch: Partial<NotificationPreferences>) => setDraft((d) => (d ? { ...d, ...patch } : d));
  const setType = (type: AlertType, on: boolean) => set({ mutedTypes: on ? draft.mutedTypes.filter((t) => t !== type) : [...draft.mutedTypes, type] });

  async function save() {
    if (!draft) return;
    setSaving(true);
    try {
      const answer = await savePreferences(draft);
      queryClient.setQueryData(preferencesQueryOptions().queryKey, answer.preferences);
      setDraft(answer.preferences);
      toast({ title: 'Settings Updated', description: 'Your notification preferences have been saved.' });
    } catch (error) {
      toast({ title: 'Error', description: errorMessage(error, 'Failed to save your notification preferences.'), variant: 'destructive' });
    } finally {
      setSaving(false);
    }
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2" className="text-lg">
          Notifications
        </CardTitle>
        <CardDescription>Choose what we tell you about, and how.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {features.alertEmails(plan) ? null : <p className="rounded-md bg-muted p-3 text-sm text-muted-foreground">Alert emails come with a paid plan; your choices are kept for when you upgrade.</p>}
        <div className="divide-y">
          <Toggle label="Email alerts" description="Mail each alert to your account address." checked={draft.emailAlerts} onChange={(v) => set({ emailAlerts: v })} />
          <Toggle
            label="Daily digest instead of each alert"
            description="One mail a day listing the day's alerts (chat and webhook channels still get each alert)."
            checked={draft.digest}
            disabled={!draft.emailAlerts}
            onChange={(v) => set({ digest: v })}
          />
          <Toggle label="Report emails" description="Mail automated reports when they are ready." checked={draft.reportEmails} onChange={(v) => set({ reportEmails: v })} />
        </div>
        <div>
          <h3 className="pt-2 text-sm font-semibold">Alert types</h3>
          <p className="text-xs text-muted-foreground">Types you turn off are still listed in the app, but delivered nowhere.</p>
          <div className="divide-y">
            {alertTypes.map((type) => (
              <Toggle key={type} label={alertTypeLabels[type].label} description={alertTypeLabels[type].description} checked={!draft.mutedTypes.includes(type)} onChange={(v) => setType(type, v)} />
            ))}
          </div>
        </div>
      </CardContent>
      <CardFooter className="justify-end border-t pt-4">
        <Button onClick={() => void save()} disabled={saving}>
          {saving ? 'Saving…' : 'Save Notifications'}
        </Button>
      </CardFooter>
    </Card>
  );
}
