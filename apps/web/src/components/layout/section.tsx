import type { ReactNode } from 'react';

/** A titled section of the public pages (landing, plan comparison); the browser skips its rendering while it is off screen. */
export function Section({ id, title, intro, children, muted }: { id?: string; title: string; intro?: string; children: ReactNode; muted?: boolean }) {
  return (
    <section id={id} aria-labelledby={id ? `${id}-title` : undefined} className={`render-when-visible scroll-mt-20 px-4 py-16 ${muted ? 'bg-muted/50' : ''}`}>
      <div className="mx-auto max-w-6xl">
        <h2 id={id ? `${id}-title` : undefined} className="text-center text-3xl font-bold tracking-tight">
          {title}
        </h2>
        {intro ? <p className="mx-auto mt-3 max-w-2xl text-center text-muted-foreground">{intro}</p> : null}
        <div className="mt-10">{children}</div>
      </div>
    </section>
  );
}
