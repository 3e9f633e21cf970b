import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { paths } from '@/config/paths';
import { Logo } from './logo';

/**
 * The card every account screen uses, at a fixed distance from the top rather than centred: a
 * prerendered page may be painted before all of it is parsed, and a centred card would then jump up
 * as the rest arrives (a layout shift).
 */
export function AuthLayout({ title, description, children }: { title: string; description?: ReactNode; children: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col items-center bg-muted/40 px-4 pb-10 pt-[max(2.5rem,12vh)]">
      <Link to={paths.landing} className="mb-6" aria-label="Sendwell home">
        <Logo />
      </Link>
      <main className="w-full max-w-md">
        <Card>
          <CardHeader>
            <CardTitle as="h1">{title}</CardTitle>
            {description ? <CardDescription>{description}</CardDescription> : null}
          </CardHeader>
          <CardContent>{children}</CardContent>
        </Card>
      </main>
    </div>
  );
}
