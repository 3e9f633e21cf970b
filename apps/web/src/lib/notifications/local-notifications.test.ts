import { describe, expect, it } from 'vitest';
import { addToList, groupNotifications, MAX_LOCAL_NOTIFICATIONS, type LocalNotification } from './local-notifications';

const n = (i: number, message = `m${i % 12}`): LocalNotification => ({
  id: `n${i}`,
  domainName: 'example.com',
  reportId: i,
  createdAt: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(),
  isRead: i % 2 === 0,
  message,
});

describe('local notifications', () => {
  it('keeps at most 50, newest first', () => {
    let list: LocalNotification[] = [];
    for (let i = 0; i < 60; i++) list = addToList(list, n(i));
    expect(list).toHaveLength(MAX_LOCAL_NOTIFICATIONS);
    expect(list[0]!.id).toBe('n59');
  });

  it('groups by message and shows the 10 most recent groups', () => {
    const list = Array.from({ length: 24 }, (_, i) => n(i));
    const groups = groupNotifications(list);
    expect(groups).toHaveLength(10);
    expect(groups[0]!.message).toBe('m11');
    expect(groups[0]!.count).toBe(2);
    expect(groups[0]!.unread).toBe(2);
  });
});
