import type { MailFlow } from '@sendwell/contracts';
import { count, fillDays } from '../lib/mail-flow-display';

const dayFmt = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
const dayText = (day: string) => dayFmt.format(new Date(`${day}T00:00:00Z`));

/** A nice round top for the axis: 1, 2 or 5 times a power of ten at or above the busiest day. */
function niceMax(n: number): number {
  if (n <= 0) return 1;
  const p = 10 ** Math.floor(Math.log10(n));
  return ([1, 2, 5, 10].find((m) => m * p >= n) ?? 10) * p;
}

/**
 * Messages per day, passing DMARC stacked under failing. The bars stretch to the card's width (no
 * fixed aspect ratio) and the axis labels are HTML, so they stay readable on a phone.
 */
export function VolumeChart({ flow }: { flow: Pick<MailFlow, 'daily' | 'from' | 'to'> }) {
  const days = fillDays(flow.daily, flow.from, flow.to, (day) => ({ day, pass: 0, fail: 0 }));
  if (days.length === 0) return null;
  const top = niceMax(Math.max(...days.map((d) => d.pass + d.fail)));
  const h = (n: number) => (n / top) * 100;
  const pass = days.reduce((s, d) => s + d.pass, 0);
  const fail = days.reduce((s, d) => s + d.fail, 0);
  return (
    <figure className="space-y-1" data-testid="volume-chart">
      <div className="flex gap-2">
        <div className="flex h-40 w-10 shrink-0 flex-col justify-between text-right text-xs tabular-nums text-muted-foreground" aria-hidden="true">
          <span className="-mt-2">{count(top)}</span>
          <span>{count(top / 2)}</span>
          <span className="-mb-2">0</span>
        </div>
        <svg
          viewBox={`0 0 ${days.length * 10} 100`}
          preserveAspectRatio="none"
          className="h-40 min-w-0 flex-1 overflow-visible"
          role="img"
          aria-label={`Messages per day from ${dayText(flow.from)} to ${dayText(flow.to)}: ${count(pass)} passing DMARC, ${count(fail)} failing`}
        >
          {[0, 50, 100].map((y) => (
            <line key={y} x1={0} x2={days.length * 10} y1={y} y2={y} className="stroke-border" vectorEffect="non-scaling-stroke" strokeDasharray={y === 100 ? undefined : '3 3'} />
          ))}
          {days.map((d, i) => (
            <g key={d.day}>
              <title>{`${dayText(d.day)}: ${count(d.pass)} passing, ${count(d.fail)} failing`}</title>
              {d.pass > 0 ? <rect x={i * 10 + 1.5} y={100 - h(d.pass)} width={7} height={h(d.pass)} className="fill-green-600 dark:fill-green-500" /> : null}
              {d.fail > 0 ? <rect x={i * 10 + 1.5} y={100 - h(d.pass + d.fail)} width={7} height={h(d.fail)} className="fill-red-500" /> : null}
            </g>
          ))}
        </svg>
      </div>
      <div className="ml-12 flex justify-between text-xs text-muted-foreground" aria-hidden="true">
        <span>{dayText(flow.from)}</span>
        <span>{dayText(flow.to)}</span>
      </div>
      <figcaption className="flex flex-wrap gap-4 pt-2 text-xs text-muted-foreground">
        <span className="inline-flex items-center gap-1.5">
          <span className="h-2.5 w-2.5 rounded-sm bg-green-600" aria-hidden="true" />
          Passing DMARC
        </span>
        <span className="inline-flex items-center gap-1.5">
          <span className="h-2.5 w-2.5 rounded-sm bg-red-500" aria-hidden="true" />
          Failing DMARC
        </span>
      </figcaption>
    </figure>
  );
}
