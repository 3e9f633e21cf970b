import { AuthLayout } from '@/components/layout/auth-layout';
import { VerifyEmailStatus } from '@/features/auth/components/verify-email-status';

export function Component() {
  return (
    <AuthLayout title="Email verification">
      <title>Verify email · Sendwell</title>
      <VerifyEmailStatus />
    </AuthLayout>
  );
}
