import { AlertCircle } from 'lucide-react';
import { Link } from 'react-router';
import { buttonClass } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { paths } from '@/config/paths';

/** Any unknown route (part 1 §2). */
export function NotFoundRoute() {
  return (
    <main className="flex min-h-screen items-center justify-center bg-muted/40 px-4">
      <title>404 Page Not Found · Sendwell</title>
      <Card className="w-full max-w-md">
        <CardContent className="pt-6">
          <div className="flex items-center gap-2">
            <AlertCircle className="h-8 w-8 text-destructive" aria-hidden="true" />
            <h1 className="text-2xl font-bold">404 Page Not Found</h1>
          </div>
          <p className="mt-4 text-sm text-muted-foreground">Did you forget to add the page to the router?</p>
          <Link to={paths.landing} className={buttonClass('outline', 'default', 'mt-6')}>
            Go Home
          </Link>
        </CardContent>
      </Card>
    </main>
  );
}

export { NotFoundRoute as Component };
