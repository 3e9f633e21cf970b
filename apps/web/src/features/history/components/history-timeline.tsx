import type { HistoryDay, ScanHealth } from '@sendwell/contracts';
import { MOBILE_QUERY, useMediaQuery } from '@/lib/hooks/use-media-query';
import { dayHealthCounts, formatDay, timelineSummary } from '../lib/history';

const H = 150;
const PAD = { l: 30, r: 10, t: 10, b: 40 };
const STRIP = 10;
const DAY_MS = 86_400_000;
const healthFill: Record<ScanHealth, string> = { healthy: 'fill-green-600', warning: 'fill-amber-500', critical: 'fill-red-600' };
const healthText: Record<ScanHealth, string> = { healthy: 'Healthy', warning: 'Warning', critical: 'Critical' };

/**
 * A domain's history over time, one point per UTC day (`GET /api/domains/{id}/history/days`): the day's
 * last reputation score as a line (where the plan shows scores) over a strip coloured by the health of
 * the day's last scan. Consecutive days of the same health are drawn as one band, so a year of daily
 * scans draws a handful of shapes.
 */
export function HistoryTimeline({ days, domainName }: { days: readonly HistoryDay[]; domainName: string }) {
  // A narrower drawing on phones keeps its labels readable at the width it is shown.
  const W = useMediaQuery(MOBILE_QUERY) ? 360 : 760;
  if (days.length < 2) return null;
  const times = days.map((d) => Date.parse(d.day));
  const t0 = times[0]!;
  // Each day is a slot: the drawing runs to the end of the last one.
  const t1 = times[times.length - 1]! + DAY_MS;
  const x = (t: number) => PAD.l + ((t - t0) / Math.max(1, t1 - t0)) * (W - PAD.l - PAD.r);
  const y = (s: number) => PAD.t + (1 - s / 100) * (H - PAD.t - PAD.b);
  const stripY = H - PAD.b + 8;

  // A day's health holds until the next day with a scan.
  const bands: Array<{ health: ScanHealth; from: number; to: number }> = [];
  days.forEach((d, i) => {
    const at = x(times[i]!);
    const end = x(times[i]! + DAY_MS);
    const last = bands[bands.length - 1];
    if (last && last.health === d.health) last.to = end;
    else {
      if (last) last.to = at;
      bands.push({ health: d.health, from: at, to: end });
    }
  });
  const scored = days.flatMap((d, i) => (d.score === null ? [] : [{ t: times[i]! + DAY_MS / 2, score: d.score }]));
  const points = scored.map((p) => `${x(p.t).toFixed(1)},${y(p.score).toFixed(1)}`).join(' ');
  const counts = dayHealthCounts(days);
  const summary = timelineSummary(domainName, days);
  const first = formatDay(days[0]!.day);
  const lastDay = formatDay(days[days.length - 1]!.day);

  return (
    <figure className="space-y-2" data-testid="history-timeline">
      <svg viewBox={`0 0 ${W} ${H}`} className="h-auto w-full" role="img" aria-label={summary}>
        {scored.length > 0
          ? [0, 40, 60, 80, 100].map((g) => (
              <g key={g}>
                <line x1={PAD.l} x2={W - PAD.r} y1={y(g)} y2={y(g)} className="stroke-border" strokeDasharray={g === 0 || g === 100 ? undefined : '3 3'} />
                <text x={PAD.l - 6} y={y(g) + 3} textAnchor="end" className="fill-muted-foreground text-[10px]">
                  {g}
                </text>
              </g>
            ))
          : (
              <text x={W / 2} y={(H - PAD.b) / 2} textAnchor="middle" className="fill-muted-foreground text-[11px]">
                Reputation scores are shown on the Standard and Advanced plans
              </text>
            )}
        {scored.length > 1 ? <polyline points={points} fill="none" className="stroke-primary" strokeWidth={2} strokeLinejoin="round" /> : null}
        {bands.map((b, i) => (
          <rect key={i} x={b.from} y={stripY} width={Math.max(2, b.to - b.from)} height={STRIP} className={healthFill[b.health]}>
            <title>{healthText[b.health]}</title>
          </rect>
        ))}
        <text x={PAD.l} y={H - 6} className="fill-muted-foreground text-[10px]">
          {first}
        </text>
        <text x={W - PAD.r} y={H - 6} textAnchor="end" className="fill-muted-foreground text-[10px]">
          {lastDay}
        </text>
      </svg>
      <figcaption className="flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-muted-foreground">
        <span>{scored.length > 0 ? 'Each day’s last score (line) and health (band)' : 'Each day’s health (its last scan)'}</span>
        {(Object.keys(healthText) as ScanHealth[]).map((h) => (
          <span key={h} className="inline-flex items-center gap-1">
            <svg width="10" height="10" aria-hidden="true">
              <rect width="10" height="10" className={healthFill[h]} />
            </svg>
            {healthText[h]} ({counts[h]} {counts[h] === 1 ? 'day' : 'days'})
          </span>
        ))}
      </figcaption>
    </figure>
  );
}
