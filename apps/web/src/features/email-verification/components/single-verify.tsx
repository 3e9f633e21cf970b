import { messages, type EmailVerificationResult } from '@sendwell/contracts';
import { useMutation } from '@tanstack/react-query';
import { MailCheck } from 'lucide-react';
import { useState, type FormEvent, type KeyboardEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { toast } from '@/components/ui/toast-store';
import { errorMessage } from '@/lib/api-client';
import { verifyEmailAddress } from '../api/verify';
import { ResultCard } from './result-card';

/**
 * One address: the input and Verify (Enter submits too), disabled while the call runs and while the
 * trimmed input is empty (part 2 §2.15, §8); Enter on an empty input still says "Email Required".
 */
export function SingleVerify() {
  const [email, setEmail] = useState('');
  const [result, setResult] = useState<EmailVerificationResult | null>(null);
  const verify = useMutation({ mutationFn: verifyEmailAddress });

  const empty = email.trim() === '';

  const onSubmit = async (event: FormEvent | KeyboardEvent) => {
    event.preventDefault();
    const value = email.trim();
    if (!value) {
      toast({ title: 'Email Required', description: messages.emailRequired, variant: 'destructive' });
      return;
    }
    try {
      setResult(await verify.mutateAsync(value));
    } catch (error) {
      toast({ title: 'Verification Failed', description: errorMessage(error, 'Failed to verify email address'), variant: 'destructive' });
    }
  };

  return (
    <div className="space-y-4">
      <form onSubmit={(e) => void onSubmit(e)} className="flex flex-col gap-2 sm:flex-row" noValidate>
        <label htmlFor="verify-email" className="sr-only">
          Email address to verify
        </label>
        <Input
          id="verify-email"
          type="email"
          inputMode="email"
          autoComplete="off"
          placeholder="name@example.com"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          // With Verify disabled the browser would not submit on Enter: the empty input is answered here.
          onKeyDown={(e) => {
            if (e.key === 'Enter' && empty) void onSubmit(e);
          }}
          disabled={verify.isPending}
          maxLength={320}
        />
        <Button type="submit" disabled={verify.isPending || empty} className="sm:w-32">
          <MailCheck className="h-4 w-4" aria-hidden="true" />
          {verify.isPending ? 'Verifying...' : 'Verify'}
        </Button>
      </form>
      {result ? <ResultCard result={result} /> : null}
    </div>
  );
}
