import { currencies, popupDateFormats, timezoneOptions, type User } from '@sendwell/contracts';
import { useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { NativeSelect } from '@/components/ui/select';
import { toast } from '@/components/ui/toast-store';
import { storageKeys } from '@/config/storage-keys';
import { markPreferencesSet } from '@/lib/api/mark-preferences-set';
import { updateCurrency } from '@/lib/api/update-currency';
import { updateDateFormat } from '@/lib/api/update-date-format';
import { updateTimezone } from '@/lib/api/update-timezone';
import { ApiRequestError, errorMessage } from '@/lib/api-client';
import { useAuth } from '@/lib/auth/auth-provider';

/** The popup appears this long after the dashboard loads (part 1 §9). */
export const PREFERENCES_POPUP_DELAY_MS = 1_000;

function browserTimezone(): string {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return timezoneOptions.some((o) => o.value === zone) ? zone : 'UTC';
}

/**
 * The first-time preferences popup (part 1 §2, §4): timezone, date format and currency; Save sends the
 * three changes in parallel and marks preferences set; Skip only marks them set, and closes even when
 * that call fails.
 */
export function PreferencesDialog({ user }: { user: User }) {
  const { updateUser } = useAuth();
  const [open, setOpen] = useState(false);
  const [saving, setSaving] = useState(false);
  const [timezone, setTimezone] = useState(() => (user.timezone !== 'UTC' ? user.timezone : browserTimezone()));
  const [dateFormat, setDateFormat] = useState(user.dateFormat);
  const [currency, setCurrency] = useState<string>(user.currency);

  useEffect(() => {
    if (user.preferencesSet) return;
    const timer = setTimeout(() => setOpen(true), PREFERENCES_POPUP_DELAY_MS);
    return () => clearTimeout(timer);
  }, [user.preferencesSet]);

  const onSkip = async () => {
    setOpen(false);
    try {
      updateUser((await markPreferencesSet()).user);
    } catch {
      // Part 1 §4: if marking fails on Skip the dialog still closes.
    }
  };

  const onSave = async () => {
    setSaving(true);
    try {
      await Promise.all([
        updateTimezone(timezone),
        updateDateFormat(dateFormat),
        user.currencyLocked ? Promise.resolve(null) : updateCurrency(currency),
      ]);
      const { user: updated } = await markPreferencesSet();
      updateUser(updated);
      localStorage.setItem(storageKeys.timezone, timezone);
      localStorage.setItem(storageKeys.dateFormat, dateFormat);
      setOpen(false);
      toast({ title: 'Preferences Updated', description: 'Your preferences have been saved.' });
    } catch (error) {
      const locked = error instanceof ApiRequestError && error.currencyLocked;
      toast({
        title: locked ? 'Currency Locked' : 'Error',
        description: locked ? errorMessage(error, 'Failed to update preferences.') : 'Failed to update preferences. Please try again.',
        variant: 'destructive',
      });
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog open={open} onOpenChange={(next) => (next ? setOpen(true) : void onSkip())}>
      <DialogContent aria-describedby="preferences-description">
        <DialogHeader>
          <DialogTitle>Welcome! Set your preferences</DialogTitle>
          <DialogDescription id="preferences-description">
            Choose how times, dates and prices are shown. You can change these later in Settings.
          </DialogDescription>
        </DialogHeader>
        <div className="space-y-4">
          <label className="block space-y-1.5 text-sm font-medium">
            <span>Timezone</span>
            <NativeSelect value={timezone} onChange={(e) => setTimezone(e.target.value)}>
              {!timezoneOptions.some((o) => o.value === timezone) ? <option value={timezone}>{timezone}</option> : null}
              {timezoneOptions.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </NativeSelect>
          </label>
          <label className="block space-y-1.5 text-sm font-medium">
            <span>Date format</span>
            <NativeSelect value={dateFormat} onChange={(e) => setDateFormat(e.target.value)}>
              {popupDateFormats.map((f) => (
                <option key={f} value={f}>
                  {f}
                </option>
              ))}
            </NativeSelect>
          </label>
          <label className="block space-y-1.5 text-sm font-medium">
            <span>Currency</span>
            <NativeSelect value={currency} disabled={user.currencyLocked} onChange={(e) => setCurrency(e.target.value)}>
              {currencies.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </NativeSelect>
          </label>
        </div>
        <DialogFooter>
          <Button variant="outline" onClick={() => void onSkip()} disabled={saving}>
            Skip
          </Button>
          <Button onClick={() => void onSave()} disabled={saving}>
            {saving ? 'Saving...' : 'Save'}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
