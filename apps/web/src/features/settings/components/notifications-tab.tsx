import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { Switch } from '@/components/ui/switch';
import { toast } from '@/components/ui/toast-store';

const toggles = [
  { key: 'emailAlerts', label: 'Email alerts', description: 'When a check changes status or a domain gets listed.' },
  { key: 'blacklist', label: 'Blacklist alerts', description: 'When one of your domains or mail servers appears on a blacklist.' },
  { key: 'ssl', label: 'SSL expiry reminders', description: 'Before a certificate expires.' },
  { key: 'reports', label: 'Report notifications', description: 'When an automated report is ready.' },
] as const;

type Key = (typeof toggles)[number]['key'];

function Toggle({ label, description, checked, onChange }: { label: string; description: string; checked: boolean; onChange: (v: boolean) => void }) {
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
      <Switch id={id} aria-describedby={`${id}-d`} checked={checked} onCheckedChange={onChange} />
    </div>
  );
}

/** Part 1 §2: toggles whose Save makes no call and only shows a simulated toast. */
export function NotificationsTab() {
  const [state, setState] = useState<Record<Key, boolean>>({ emailAlerts: true, blacklist: true, ssl: true, reports: false });
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2" className="text-lg">
          Notifications
        </CardTitle>
        <CardDescription>Choose what we tell you about.</CardDescription>
      </CardHeader>
      <CardContent className="divide-y">
        {toggles.map((t) => (
          <Toggle key={t.key} label={t.label} description={t.description} checked={state[t.key]} onChange={(v) => setState((s) => ({ ...s, [t.key]: v }))} />
        ))}
      </CardContent>
      <CardFooter className="justify-end border-t pt-4">
        <Button onClick={() => toast({ title: 'Settings Updated', description: 'Your notification preferences have been saved.' })}>Save Notifications</Button>
      </CardFooter>
    </Card>
  );
}
