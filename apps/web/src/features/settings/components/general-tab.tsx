import { currencyCatalogue, currencies, dateFormats, type User } from '@sendwell/contracts';
import { Lock } from 'lucide-react';
import { useId, useState, type ReactNode } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { NativeSelect } from '@/components/ui/select';
import { toast } from '@/components/ui/toast-store';
import { storageKeys } from '@/config/storage-keys';
import { updateCurrency } from '@/lib/api/update-currency';
import { updateDateFormat } from '@/lib/api/update-date-format';
import { updateTimezone } from '@/lib/api/update-timezone';
import { ApiRequestError, errorMessage } from '@/lib/api-client';
import { useAuth } from '@/lib/auth/auth-provider';
import { isAlreadySet, preferencesToSend, storedPreferences, type PreferenceField, type Preferences } from '../lib/preferences';
import { BillingSections } from './billing-sections';
import { TimezonePicker } from './timezone-picker';

const calls: Record<PreferenceField, (value: string) => Promise<{ user: User }>> = {
  timezone: updateTimezone,
  dateFormat: updateDateFormat,
  currency: updateCurrency,
};

function Field({ label, labelId, badge, hint, children }: { label: string; labelId: string; badge?: ReactNode; hint?: string; children: ReactNode }) {
  return (
    <div className="space-y-1.5">
      <div className="flex items-center gap-2">
        <span id={labelId} className="text-sm font-medium">
          {label}
        </span>
        {badge}
      </div>
      {children}
      {hint ? <p className="text-xs text-muted-foreground">{hint}</p> : null}
    </div>
  );
}

const alreadySetBadge = (
  <Badge variant="secondary" className="normal-case" data-testid="already-set">
    Already set
  </Badge>
);

/**
 * Timezone, date format and currency (part 1 §2 Settings, §7): Save sends the PUTs of the values
 * not 'Already set' in parallel, updates the stored user and keeps timezone and date format locally.
 */
function PreferencesCard({ user }: { user: User }) {
  const { updateUser } = useAuth();
  const stored = storedPreferences(user);
  const [form, setForm] = useState<Preferences>(stored);
  const [saving, setSaving] = useState(false);
  const ids = { timezone: useId(), dateFormat: useId(), currency: useId() };
  const set = (field: PreferenceField) => (value: string) => setForm((f) => ({ ...f, [field]: value }));

  const onSave = async () => {
    const toSend = preferencesToSend(stored, form, user.currencyLocked);
    const fields = Object.keys(toSend) as PreferenceField[];
    setSaving(true);
    const results = await Promise.allSettled(fields.map((f) => calls[f](toSend[f]!)));
    setSaving(false);
    let next: User = user;
    results.forEach((r, i) => {
      if (r.status === 'fulfilled') next = { ...next, [fields[i]!]: r.value.user[fields[i]!], updatedAt: r.value.user.updatedAt };
    });
    if (next !== user) updateUser(next);
    if (toSend.timezone !== undefined || results.length === 0) localStorage.setItem(storageKeys.timezone, form.timezone);
    if (toSend.dateFormat !== undefined || results.length === 0) localStorage.setItem(storageKeys.dateFormat, form.dateFormat);
    const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (!failure) {
      toast({ title: 'Preferences Updated', description: 'Your preferences have been saved.' });
      return;
    }
    const locked = failure.reason instanceof ApiRequestError && failure.reason.currencyLocked;
    toast({ title: locked ? 'Currency Locked' : 'Error', description: errorMessage(failure.reason, 'Failed to update preferences.'), variant: 'destructive' });
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2" className="text-lg">
          Preferences
        </CardTitle>
        <CardDescription>How dates, times and prices are shown to you.</CardDescription>
      </CardHeader>
      <CardContent className="grid grid-cols-1 gap-5 md:grid-cols-3">
        <Field label="Timezone" labelId={ids.timezone} badge={isAlreadySet('timezone', stored, form) ? alreadySetBadge : null}>
          <TimezonePicker value={form.timezone} onChange={set('timezone')} labelledBy={ids.timezone} />
        </Field>
        <Field label="Date format" labelId={ids.dateFormat} badge={isAlreadySet('dateFormat', stored, form) ? alreadySetBadge : null}>
          <NativeSelect aria-labelledby={ids.dateFormat} value={form.dateFormat} onChange={(e) => set('dateFormat')(e.target.value)}>
            {dateFormats.map((f) => (
              <option key={f} value={f}>
                {f}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <Field
          label="Currency"
          labelId={ids.currency}
          badge={
            user.currencyLocked ? (
              <Badge variant="outline" className="gap-1 normal-case">
                <Lock className="h-3 w-3" aria-hidden="true" />
                Locked
              </Badge>
            ) : isAlreadySet('currency', stored, form) ? (
              alreadySetBadge
            ) : null
          }
          hint={user.currencyLocked ? 'Your currency is locked after your first payment.' : undefined}
        >
          <NativeSelect aria-labelledby={ids.currency} value={form.currency} disabled={user.currencyLocked} onChange={(e) => set('currency')(e.target.value)}>
            {currencies.map((c) => (
              <option key={c} value={c}>
                {c} · {currencyCatalogue[c].name}
              </option>
            ))}
          </NativeSelect>
        </Field>
      </CardContent>
      <CardFooter className="justify-end border-t pt-4">
        <Button onClick={() => void onSave()} disabled={saving}>
          {saving ? 'Saving...' : 'Save Preferences'}
        </Button>
      </CardFooter>
    </Card>
  );
}

export function GeneralTab({ user }: { user: User }) {
  return (
    <div className="space-y-6">
      <PreferencesCard key={`${user.timezone}|${user.dateFormat}|${user.currency}`} user={user} />
      <BillingSections user={user} />
    </div>
  );
}
