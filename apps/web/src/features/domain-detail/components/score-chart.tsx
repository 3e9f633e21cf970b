import type { Reputation } from '@sendwell/contracts';

const W = 560;
const H = 160;
const PAD = { l: 30, r: 10, t: 10, b: 22 };
const dayFmt = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric' });

/** Score over time from the reputation history, as a small SVG line chart with a data-table fallback. */
export function ScoreChart({ history }: { history: readonly Reputation[] }) {
  if (history.length < 2) {
    return <p className="text-sm text-muted-foreground">The chart appears once there are two or more scores; scores are recalculated daily.</p>;
  }
  const times = history.map((h) => Date.parse(h.calculatedAt));
  const t0 = Math.min(...times);
  const t1 = Math.max(...times);
  const x = (t: number) => PAD.l + ((t - t0) / Math.max(1, t1 - t0)) * (W - PAD.l - PAD.r);
  const y = (s: number) => PAD.t + (1 - s / 100) * (H - PAD.t - PAD.b);
  const points = history.map((h, i) => `${x(times[i]!).toFixed(1)},${y(h.score).toFixed(1)}`).join(' ');
  const first = history[0]!;
  const last = history[history.length - 1]!;
  return (
    <figure className="space-y-2">
      <svg viewBox={`0 0 ${W} ${H}`} className="h-40 w-full" role="img" aria-label={`Reputation score over time: from ${first.score} on ${dayFmt.format(new Date(first.calculatedAt))} to ${last.score} on ${dayFmt.format(new Date(last.calculatedAt))}`}>
        {[0, 40, 60, 80, 100].map((g) => (
          <g key={g}>
            <line x1={PAD.l} x2={W - PAD.r} y1={y(g)} y2={y(g)} className="stroke-border" strokeDasharray={g === 0 || g === 100 ? undefined : '3 3'} />
            <text x={PAD.l - 6} y={y(g) + 3} textAnchor="end" className="fill-muted-foreground text-[10px]">
              {g}
            </text>
          </g>
        ))}
        <polyline points={points} fill="none" className="stroke-primary" strokeWidth={2.5} strokeLinejoin="round" strokeLinecap="round" />
        {history.map((h, i) => (
          <circle key={`${h.calculatedAt}-${i}`} cx={x(times[i]!)} cy={y(h.score)} r={3} className="fill-primary" />
        ))}
        <text x={PAD.l} y={H - 6} className="fill-muted-foreground text-[10px]">
          {dayFmt.format(new Date(t0))}
        </text>
        <text x={W - PAD.r} y={H - 6} textAnchor="end" className="fill-muted-foreground text-[10px]">
          {dayFmt.format(new Date(t1))}
        </text>
      </svg>
      <figcaption className="text-xs text-muted-foreground">Score over time ({history.length} calculations)</figcaption>
    </figure>
  );
}
