import { AuthLayout } from '@/components/layout/auth-layout';
import { ResetPasswordForm } from '@/features/auth/components/reset-password-form';

export function Component() {
  return (
    <AuthLayout title="Reset your password" description="Choose a new password of at least 8 characters.">
      <title>Reset password · Sendwell</title>
      <ResetPasswordForm />
    </AuthLayout>
  );
}
