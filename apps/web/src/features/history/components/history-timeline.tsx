import type { ScanHealth } from '@sendwell/contracts';
import { MOBILE_QUERY, useMediaQuery } from '@/lib/hooks/use-media-query';
import type { ScanGroup } from '../lib/history';

const H = 150;
const PAD = { l: 30, r: 10, t: 10, b: 40 };
const STRIP = 10;
const dayFmt = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric' });
const healthFill: Record<ScanHealth, string> = { healthy: 'fill-green-600', warning: 'fill-amber-500', critical: 'fill-red-600' };
const healthText: Record<ScanHealth, string> = { healthy: 'Healthy', warning: 'Warning', critical: 'Critical' };

/**
 * A domain's scans over time: the reputation score as a line (where the plan shows scores) over a
 * strip coloured by each scan's health. Consecutive scans of the same health are drawn as one band,
 * so a thousand scans draw a handful of shapes.
 */
export function HistoryTimeline({ groups, domainName }: { groups: readonly ScanGroup[]; domainName: string }) {
  // A narrower drawing on phones keeps its labels readable at the width it is shown.
  const W = useMediaQuery(MOBILE_QUERY) ? 360 : 760;
  if (groups.length < 2) return null;
  const oldestFirst = [...groups].reverse();
  const times = oldestFirst.map((g) => Date.parse(g.scan.createdAt));
  const t0 = times[0]!;
  const t1 = times[times.length - 1]!;
  const x = (t: number) => PAD.l + ((t - t0) / Math.max(1, t1 - t0)) * (W - PAD.l - PAD.r);
  const y = (s: number) => PAD.t + (1 - s / 100) * (H - PAD.t - PAD.b);
  const stripY = H - PAD.b + 8;

  const bands: Array<{ health: ScanHealth; from: number; to: number }> = [];
  oldestFirst.forEach((g, i) => {
    const at = x(times[i]!);
    const last = bands[bands.length - 1];
    if (last && last.health === g.health) last.to = at;
    else {
      if (last) last.to = at;
      bands.push({ health: g.health, from: at, to: at });
    }
  });
  const scored = oldestFirst.flatMap((g, i) => (g.score === null ? [] : [{ t: times[i]!, score: g.score }]));
  const points = scored.map((p) => `${x(p.t).toFixed(1)},${y(p.score).toFixed(1)}`).join(' ');
  const counts = { healthy: 0, warning: 0, critical: 0 };
  for (const g of groups) counts[g.health] += 1;
  const summary = `${domainName}: ${groups.length} scans from ${dayFmt.format(t0)} to ${dayFmt.format(t1)}; ${counts.healthy} healthy, ${counts.warning} warning, ${counts.critical} critical${
    scored.length > 0 ? `; score from ${scored[0]!.score} to ${scored[scored.length - 1]!.score}` : ''
  }`;

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
          {dayFmt.format(t0)}
        </text>
        <text x={W - PAD.r} y={H - 6} textAnchor="end" className="fill-muted-foreground text-[10px]">
          {dayFmt.format(t1)}
        </text>
      </svg>
      <figcaption className="flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-muted-foreground">
        <span>{scored.length > 0 ? 'Score (line) and each scan’s health (band)' : 'Each scan’s health'}</span>
        {(Object.keys(healthText) as ScanHealth[]).map((h) => (
          <span key={h} className="inline-flex items-center gap-1">
            <svg width="10" height="10" aria-hidden="true">
              <rect width="10" height="10" className={healthFill[h]} />
            </svg>
            {healthText[h]} ({counts[h]})
          </span>
        ))}
      </figcaption>
    </figure>
  );
}
