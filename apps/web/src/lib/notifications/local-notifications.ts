import { useSyncExternalStore } from 'react';

/** A report notification kept in memory only (part 1 §3 "Local notification"). */
export interface LocalNotification {
  id: string;
  domainName: string;
  reportId: number;
  createdAt: string;
  isRead: boolean;
  message: string;
}

export const MAX_LOCAL_NOTIFICATIONS = 50;
export const MAX_NOTIFICATION_GROUPS = 10;

export interface NotificationGroup {
  message: string;
  count: number;
  unread: number;
  latestAt: string;
  items: LocalNotification[];
}

/** Newest first, at most 50 (part 1 §9). */
export function addToList(list: readonly LocalNotification[], item: LocalNotification): LocalNotification[] {
  return [item, ...list.filter((n) => n.id !== item.id)].slice(0, MAX_LOCAL_NOTIFICATIONS);
}

/** Grouped by message, most recent group first, the top 10 (part 1 §2 bell). */
export function groupNotifications(list: readonly LocalNotification[]): NotificationGroup[] {
  const groups = new Map<string, NotificationGroup>();
  for (const n of list) {
    const g = groups.get(n.message) ?? { message: n.message, count: 0, unread: 0, latestAt: n.createdAt, items: [] };
    g.count += 1;
    if (!n.isRead) g.unread += 1;
    if (n.createdAt > g.latestAt) g.latestAt = n.createdAt;
    g.items.push(n);
    groups.set(n.message, g);
  }
  return [...groups.values()].sort((a, b) => b.latestAt.localeCompare(a.latestAt)).slice(0, MAX_NOTIFICATION_GROUPS);
}

let state: { items: LocalNotification[]; hasNewReports: boolean } = { items: [], hasNewReports: false };
const listeners = new Set<() => void>();
const set = (next: typeof state) => {
  state = next;
  listeners.forEach((l) => l());
};

export const localNotifications = {
  add(item: Omit<LocalNotification, 'isRead'>) {
    set({ items: addToList(state.items, { ...item, isRead: false }), hasNewReports: true });
  },
  markRead(id: string) {
    set({ ...state, items: state.items.map((n) => (n.id === id ? { ...n, isRead: true } : n)) });
  },
  /** Resets the unread count and the new-reports flag (part 1 §4). */
  markAllRead() {
    set({ items: state.items.map((n) => ({ ...n, isRead: true })), hasNewReports: false });
  },
  clear() {
    set({ items: [], hasNewReports: false });
  },
};

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useLocalNotifications() {
  return useSyncExternalStore(subscribe, () => state, () => state);
}
