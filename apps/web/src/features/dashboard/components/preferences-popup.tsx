import { currencies, popupDateFormats, timezoneOptions, type User } from '@sendwell/contracts';
import { X } from 'lucide-react';
import { useLayoutEffect, useRef, useState, type PointerEvent } from 'react';
import { createPortal } from 'react-dom';
import { Button } from '@/components/ui/button';
import { DialogFooter, DialogHeader } from '@/components/ui/dialog';
import { NativeSelect } from '@/components/ui/select';
import { toast } from '@/components/ui/toast-store';
import { storageKeys } from '@/config/storage-keys';
import { markPreferencesSet } from '@/lib/api/mark-preferences-set';
import { updateCurrency } from '@/lib/api/update-currency';
import { updateDateFormat } from '@/lib/api/update-date-format';
import { updateTimezone } from '@/lib/api/update-timezone';
import { ApiRequestError, errorMessage } from '@/lib/api-client';
import { useAuth } from '@/lib/auth/auth-provider';
import { cn } from '@/lib/utils';

function browserTimezone(): string {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return timezoneOptions.some((o) => o.value === zone) ? zone : 'UTC';
}

/**
 * The first-time preferences popup (part 1 §2, §4): timezone, date format and currency; Save sends the
 * three changes in parallel and marks preferences set; Skip only marks them set, and closes even when
 * that call fails. Loaded and shown by PreferencesDialog (preferences-dialog.tsx) for a user who has
 * not set them.
 *
 * The platform's modal `<dialog>` rather than the shared Radix dialog, drawn as that one: the page
 * behind is inert and does not scroll (styles.css), Escape or a press outside skips, focus starts on
 * the first field. Radix's dialog
 * code (16 KB gzip) was a tenth of a new user's first dashboard, for one popup.
 */
export default function PreferencesPopup({ user, onClose }: { user: User; onClose: () => void }) {
  const { updateUser } = useAuth();
  const dialog = useRef<HTMLDialogElement>(null);
  const [saving, setSaving] = useState(false);
  const [timezone, setTimezone] = useState(() => (user.timezone !== 'UTC' ? user.timezone : browserTimezone()));
  const [dateFormat, setDateFormat] = useState(user.dateFormat);
  const [currency, setCurrency] = useState<string>(user.currency);

  useLayoutEffect(() => {
    const element = dialog.current;
    if (!element) return;
    element.showModal();
    element.querySelector('select')?.focus();
    return () => element.close();
  }, []);

  const onSkip = async () => {
    onClose();
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
      onClose();
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

  // A press on the backdrop lands on the dialog element itself, outside its box.
  const onPointerDown = (event: PointerEvent<HTMLDialogElement>) => {
    if (event.target !== event.currentTarget) return;
    const box = event.currentTarget.getBoundingClientRect();
    if (event.clientX < box.left || event.clientX > box.right || event.clientY < box.top || event.clientY > box.bottom) void onSkip();
  };

  // In <body>, as the shared dialog renders: nothing is added to the page's own layout.
  return createPortal(
    <dialog
      ref={dialog}
      aria-labelledby="preferences-title"
      aria-describedby="preferences-description"
      onCancel={(event) => {
        event.preventDefault();
        void onSkip();
      }}
      onPointerDown={onPointerDown}
      className={cn(
        'fixed bottom-auto right-auto left-1/2 top-1/2 z-50 m-0 grid max-h-none w-[calc(100%-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 gap-4 overflow-visible',
        'rounded-xl border bg-card p-6 text-card-foreground shadow-lg backdrop:bg-black/60',
      )}
    >
      <DialogHeader>
        <h2 id="preferences-title" className="text-lg font-semibold">
          Welcome! Set your preferences
        </h2>
        <p id="preferences-description" className="text-sm text-muted-foreground">
          Choose how times, dates and prices are shown. You can change these later in Settings.
        </p>
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
      <button type="button" aria-label="Close" className="absolute right-4 top-4 rounded-sm opacity-70 hover:opacity-100" onClick={() => void onSkip()}>
        <X className="h-4 w-4" aria-hidden="true" />
      </button>
    </dialog>,
    document.body,
  );
}
