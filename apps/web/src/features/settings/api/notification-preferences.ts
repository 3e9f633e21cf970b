import type { NotificationPreferences, UpdateNotificationPreferencesAnswer } from '@sendwell/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET and PUT /api/alerts/preferences: Settings → Notifications. */
export const preferencesQueryOptions = () =>
  queryOptions({ queryKey: ['/api/alerts/preferences'], queryFn: () => api.get<NotificationPreferences>('/api/alerts/preferences') });
export const usePreferences = () => useQuery(preferencesQueryOptions());
export const savePreferences = (preferences: NotificationPreferences) => api.put<UpdateNotificationPreferencesAnswer>('/api/alerts/preferences', preferences);
