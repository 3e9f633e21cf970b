import type { ReactNode } from 'react';

export type DetailRow = readonly [label: string, value: ReactNode];

const absent = <span className="text-muted-foreground">Not present</span>;

/** Label and value pairs of one group's details; an empty value reads "Not present". */
export function DetailList({ rows, testId }: { rows: readonly DetailRow[]; testId?: string }) {
  return (
    <dl className="grid grid-cols-1 gap-x-4 gap-y-2 text-sm sm:grid-cols-[11rem_minmax(0,1fr)]" data-testid={testId}>
      {rows.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="font-medium text-muted-foreground">{label}</dt>
          <dd className="min-w-0 break-words">{value === null || value === undefined || value === '' ? absent : value}</dd>
        </div>
      ))}
    </dl>
  );
}
