import type { User } from '@sendwell/contracts';
import { lazy, Suspense, useEffect, useState } from 'react';

/** The popup appears this long after the dashboard loads (part 1 §9). */
export const PREFERENCES_POPUP_DELAY_MS = 1_000;

const loadPopup = () => import('./preferences-popup');
const PreferencesPopup = lazy(loadPopup);

/**
 * The first-time preferences popup (part 1 §2, §4), shown one second after the dashboard loads to a
 * user who has not set them (preferences-popup.tsx). Its code loads during that second, and only for
 * such a user: the dashboard of everyone else never fetches it.
 */
export function PreferencesDialog({ user }: { user: User }) {
  const [open, setOpen] = useState(false);

  useEffect(() => {
    if (user.preferencesSet) return;
    void loadPopup();
    const timer = setTimeout(() => setOpen(true), PREFERENCES_POPUP_DELAY_MS);
    return () => clearTimeout(timer);
  }, [user.preferencesSet]);

  if (!open) return null;
  return (
    <Suspense fallback={null}>
      <PreferencesPopup user={user} onClose={() => setOpen(false)} />
    </Suspense>
  );
}
