import type { ApiAnswer } from '@sendwell/contracts';
import { useMutation } from '@tanstack/react-query';
import { toast } from '@/components/ui/toast-store';
import { errorMessage } from '@/lib/api-client';
import { callApi } from '@/lib/api/call-api';
import { storeUser } from '@/lib/auth/session-storage';

/** POST /api/user/dismiss-upgrade-notification: clears the user's `showUpgradeNotification`. */
export function dismissUpgradeNotification(): Promise<ApiAnswer<'POST /api/user/dismiss-upgrade-notification'>> {
  return callApi('POST /api/user/dismiss-upgrade-notification');
}

/**
 * Part 1 §7: the page reloads on success, so every banner keyed on the flag goes at once. The session
 * restarts from the stored user, so the answer's user is stored first: otherwise the banner would
 * flash back until GET /api/user returns. A failure keeps the banner and says why.
 */
export function useDismissUpgradeNotification(reload: () => void = () => window.location.reload()) {
  return useMutation({
    mutationFn: dismissUpgradeNotification,
    onSuccess: ({ user }) => {
      storeUser(user);
      reload();
    },
    onError: (error) => toast({ title: 'Could not dismiss', description: errorMessage(error, 'Please try again.'), variant: 'destructive' }),
  });
}
