import { RefreshCw } from 'lucide-react';
import { Alert } from './alert';
import { Button } from './button';

/**
 * A read that failed, said as a failure (never as an empty or unavailable state), with a way to try
 * again. `retrying` while the retry is in flight.
 */
export function ReadError({ title, message, onRetry, retrying = false, testId }: { title: string; message: string; onRetry: () => void; retrying?: boolean; testId?: string }) {
  return (
    <div data-testid={testId}>
      <Alert variant="destructive" title={title}>
        <p>{message}</p>
        <Button size="sm" variant="outline" className="mt-3" onClick={onRetry} disabled={retrying}>
          <RefreshCw className="h-4 w-4" aria-hidden="true" />
          {retrying ? 'Retrying...' : 'Try again'}
        </Button>
      </Alert>
    </div>
  );
}
