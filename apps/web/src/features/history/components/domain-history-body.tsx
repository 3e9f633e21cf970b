import type { ScanGroup } from '../lib/history';
import { HistoryTimeline } from './history-timeline';
import { ScanList } from './scan-list';

/** An expanded history card: the score and status timeline over the windowed list of scans. */
export default function DomainHistoryBody({ groups, domainName }: { groups: ScanGroup[]; domainName: string }) {
  return (
    <>
      <HistoryTimeline groups={groups} domainName={domainName} />
      <ScanList groups={groups} domainName={domainName} />
    </>
  );
}
