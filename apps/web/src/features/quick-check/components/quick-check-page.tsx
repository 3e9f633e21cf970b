import { EXAMPLE_HOST } from '@sendwell/contracts';
import { Info } from 'lucide-react';
import { Link, useNavigate } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { buttonClass } from '@/components/ui/button';
import { Card, CardContent, CardHeader } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { paths } from '@/config/paths';
import { useSampleDomain } from '../api/get-sample-domain';
import { SampleDomainCard } from './sample-domain-card';

/** The quick check of a sample domain (part 2 §2.9); the domain defaults to example.com. */
export function QuickCheckPage({ domain = EXAMPLE_HOST }: { domain?: string }) {
  const navigate = useNavigate();
  const sample = useSampleDomain(domain);
  const createFree = `${paths.register}?source=quick-check&domain=${encodeURIComponent(domain)}`;

  return (
    <div className="mx-auto max-w-2xl space-y-6">
      <Alert>
        <span className="flex gap-2">
          <Info className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
          <span>This card shows real scan data for {domain}, checked live by Sendwell. Create a free account to keep monitoring it.</span>
        </span>
      </Alert>
      {sample.isError ? (
        <Alert variant="destructive" title="Failed to load domain data">
          Please try again later.
        </Alert>
      ) : sample.data ? (
        <SampleDomainCard answer={sample.data} onOpen={() => navigate(paths.register)} />
      ) : (
        <Card aria-busy="true" aria-label="Loading domain data">
          <CardHeader>
            <Skeleton className="h-6 w-48" />
          </CardHeader>
          <CardContent className="space-y-3">
            {Array.from({ length: 6 }, (_, i) => (
              <Skeleton key={i} className="h-6 w-full" />
            ))}
          </CardContent>
        </Card>
      )}
      <div className="flex flex-col gap-2 sm:flex-row sm:justify-end">
        <Link to={paths.landing} className={buttonClass('ghost')}>
          Go Home
        </Link>
        <Link to={paths.register} className={buttonClass('outline')}>
          Create Account
        </Link>
        <Link to={createFree} className={buttonClass('default')}>
          Create Free Account
        </Link>
      </div>
    </div>
  );
}
