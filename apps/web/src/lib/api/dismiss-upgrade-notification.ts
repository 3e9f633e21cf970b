import type { UserUpdateAnswer } from '@sendwell/contracts';
import { useMutation } from '@tanstack/react-query';
import { toast } from '@/components/ui/toast-store';
import { api, errorMessage } from '@/lib/api-client';

/** POST /api/user/dismiss-upgrade-notification: clears the user's `showUpgradeNotification`. */
export function dismissUpgradeNotification(): Promise<UserUpdateAnswer> {
  return api.post<UserUpdateAnswer>('/api/user/dismiss-upgrade-notification');
}

/**
 * Part 1 §7: the page reloads on success, so every banner keyed on the flag goes at once and the
 * session starts again from the stored user; a failure keeps the banner and says why.
 */
export function useDismissUpgradeNotification(reload: () => void = () => window.location.reload()) {
  return useMutation({
    mutationFn: dismissUpgradeNotification,
    onSuccess: reload,
    onError: (error) => toast({ title: 'Could not dismiss', description: errorMessage(error, 'Please try again.'), variant: 'destructive' }),
  });
}
