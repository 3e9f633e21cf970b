import type { MailFlow } from '@sendwell/contracts';
import { count, fillDays } from '../lib/mail-flow-display';

const W = 640;
const H = 180;
const PAD = { l: 40, r: 8, t: 8, b: 22 };
const dayFmt = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
const dayText = (day: string) => dayFmt.format(new Date(`${day}T00:00:00Z`));

/** A nice round top for the axis: 1, 2 or 5 times a power of ten at or above the busiest day. */
function niceMax(n: number): number {
  if (n <= 0) return 1;
  const p = 10 ** Math.floor(Math.log10(n));
  return ([1, 2, 5, 10].find((m) => m * p >= n) ?? 10) * p;
}

/** Messages per day, passing DMARC stacked under failing, as an SVG bar chart (like the score chart). */
export function VolumeChart({ flow }: { flow: Pick<MailFlow, 'daily' | 'from' | 'to'> }) {
  const days = fillDays(flow.daily, flow.from, flow.to, (day) => ({ day, pass: 0, fail: 0 }));
  if (days.length === 0) return null;
  const top = niceMax(Math.max(...days.map((d) => d.pass + d.fail)));
  const plotW = W - PAD.l - PAD.r;
  const plotH = H - PAD.t - PAD.b;
  const slot = plotW / days.length;
  const barW = Math.max(1, slot * 0.7);
  const y = (n: number) => PAD.t + (1 - n / top) * plotH;
  const pass = days.reduce((s, d) => s + d.pass, 0);
  const fail = days.reduce((s, d) => s + d.fail, 0);
  return (
    <figure className="space-y-2" data-testid="volume-chart">
      <svg
        viewBox={`0 0 ${W} ${H}`}
        className="h-44 w-full"
        role="img"
        aria-label={`Messages per day from ${dayText(flow.from)} to ${dayText(flow.to)}: ${count(pass)} passing DMARC, ${count(fail)} failing`}
      >
        {[0, top / 2, top].map((g) => (
          <g key={g}>
            <line x1={PAD.l} x2={W - PAD.r} y1={y(g)} y2={y(g)} className="stroke-border" strokeDasharray={g === 0 ? undefined : '3 3'} />
            <text x={PAD.l - 6} y={y(g) + 3} textAnchor="end" className="fill-muted-foreground text-[10px]">
              {count(g)}
            </text>
          </g>
        ))}
        {days.map((d, i) => {
          const x = PAD.l + i * slot + (slot - barW) / 2;
          return (
            <g key={d.day}>
              <title>{`${dayText(d.day)}: ${count(d.pass)} passing, ${count(d.fail)} failing`}</title>
              {d.pass > 0 ? <rect x={x} y={y(d.pass)} width={barW} height={plotH + PAD.t - y(d.pass)} className="fill-green-600 dark:fill-green-500" rx={1} /> : null}
              {d.fail > 0 ? <rect x={x} y={y(d.pass + d.fail)} width={barW} height={y(d.pass) - y(d.pass + d.fail)} className="fill-red-500" rx={1} /> : null}
            </g>
          );
        })}
        <text x={PAD.l} y={H - 6} className="fill-muted-foreground text-[10px]">
          {dayText(flow.from)}
        </text>
        <text x={W - PAD.r} y={H - 6} textAnchor="end" className="fill-muted-foreground text-[10px]">
          {dayText(flow.to)}
        </text>
      </svg>
      <figcaption className="flex flex-wrap gap-4 text-xs text-muted-foreground">
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
