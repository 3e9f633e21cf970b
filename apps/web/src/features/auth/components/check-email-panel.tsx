import { MailCheck } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';

/** Shown when the server asks for email verification before the first login (part 1 §2). */
export function CheckEmailPanel({ email, onTryAgain }: { email: string; onTryAgain: () => void }) {
  return (
    <section aria-labelledby="check-email-title" className="space-y-4 text-center">
      <div className="mx-auto flex h-12 w-12 items-center justify-center rounded-full bg-primary/10 text-primary">
        <MailCheck className="h-6 w-6" aria-hidden="true" />
      </div>
      <h2 id="check-email-title" className="text-xl font-semibold">
        Check Your Email
      </h2>
      <p className="text-sm text-muted-foreground">
        We sent a verification link to <strong className="text-foreground">{email}</strong>. Open it to activate your account.
      </p>
      <p className="text-sm text-muted-foreground">
        Can't find it? Check your spam folder, or{' '}
        <Button variant="link" className="h-auto p-0" onClick={onTryAgain}>
          try again
        </Button>
        .
      </p>
      <Link to={paths.login} className="inline-block text-sm font-medium text-primary hover:underline">
        Already verified? Log in
      </Link>
    </section>
  );
}
