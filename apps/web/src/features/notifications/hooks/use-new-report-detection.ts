import { features } from '@sendwell/contracts';
import { useEffect, useRef } from 'react';
import { useReports } from '@/lib/api/get-reports';
import { localNotifications } from '@/lib/notifications/local-notifications';

/** Reports created after page load minus 60 s are new; each is announced 5 s later (part 1 §4). */
const PAGE_LOADED_AT = Date.now();
const NEW_REPORT_WINDOW_MS = 60_000;
const ANNOUNCE_DELAY_MS = 5_000;

export function useNewReportDetection(plan: string) {
  const enabled = features.reports(plan);
  const { data } = useReports({ enabled });
  const seen = useRef(new Set<number>());
  const timers = useRef<ReturnType<typeof setTimeout>[]>([]);

  useEffect(() => () => timers.current.forEach(clearTimeout), []);

  useEffect(() => {
    if (typeof Notification !== 'undefined' && Notification.permission === 'default') {
      void Notification.requestPermission().catch(() => undefined);
    }
  }, []);

  useEffect(() => {
    if (!data) return;
    for (const report of data) {
      if (report.type !== 'automated' || seen.current.has(report.id)) continue;
      if (Date.parse(report.createdAt) <= PAGE_LOADED_AT - NEW_REPORT_WINDOW_MS) continue;
      seen.current.add(report.id);
      const domainName = report.data.domainName ?? 'your domain';
      const message = `New automated report for ${domainName}`;
      timers.current.push(
        setTimeout(() => {
          localNotifications.add({ id: `report-${report.id}`, reportId: report.id, domainName, createdAt: report.createdAt, message });
          if (typeof Notification !== 'undefined' && Notification.permission === 'granted') {
            new Notification('New report available', { body: message });
          }
        }, ANNOUNCE_DELAY_MS),
      );
    }
  }, [data]);
}
