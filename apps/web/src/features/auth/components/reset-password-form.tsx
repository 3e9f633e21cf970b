import { zodResolver } from '@hookform/resolvers/zod';
import { messages, resetPasswordFormSchema } from '@sendwell/contracts';
import { CheckCircle2 } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useSearchParams } from 'react-router';
import type { z } from 'zod';
import { Alert } from '@/components/ui/alert';
import { buttonClass, Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/api-client';
import { useResetPassword } from '../api/reset-password';

type Values = z.infer<typeof resetPasswordFormSchema>;

/** New password and confirmation; the token comes from the mailed link (part 1 §2, §4, §8). */
export function ResetPasswordForm() {
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token')?.trim() || null;
  const reset = useResetPassword();
  const [failure, setFailure] = useState<{ title?: string; message: string } | null>(null);
  const [done, setDone] = useState(false);
  const form = useForm<Values>({ resolver: zodResolver(resetPasswordFormSchema), defaultValues: { password: '', confirmPassword: '' } });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    setFailure(null);
    if (!token) {
      setFailure({ title: 'Invalid reset token.', message: messages.resetTokenMissing });
      return;
    }
    try {
      await reset.mutateAsync({ token, newPassword: values.password });
      setDone(true);
    } catch (error) {
      setFailure({ message: errorMessage(error, 'Failed to reset password. Please try again or request a new reset link.') });
    }
  });

  if (done) {
    return (
      <section aria-labelledby="reset-done" className="space-y-4 text-center">
        <CheckCircle2 className="mx-auto h-12 w-12 text-green-600" aria-hidden="true" />
        <h2 id="reset-done" className="text-xl font-semibold">
          Password Reset Successful
        </h2>
        <p className="text-sm text-muted-foreground">You can now log in with your new password.</p>
        <Link to={paths.login} className={buttonClass('default', 'default', 'w-full')}>
          Go to Login
        </Link>
      </section>
    );
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      {failure ? (
        <Alert variant="destructive" title={failure.title}>
          {failure.message}
        </Alert>
      ) : null}
      <FormField label="New password" error={errors.password?.message}>
        <Input type="password" autoComplete="new-password" {...form.register('password')} />
      </FormField>
      <FormField label="Confirm new password" error={errors.confirmPassword?.message}>
        <Input type="password" autoComplete="new-password" {...form.register('confirmPassword')} />
      </FormField>
      <Button type="submit" className="w-full" disabled={form.formState.isSubmitting}>
        {form.formState.isSubmitting ? 'Resetting…' : 'Reset password'}
      </Button>
      <p className="text-center text-sm">
        <Link to={paths.login} className="font-medium text-primary hover:underline">
          Back to login
        </Link>
      </p>
    </form>
  );
}
