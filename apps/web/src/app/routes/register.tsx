import { AuthLayout } from '@/components/layout/auth-layout';
import { RegisterForm } from '@/features/auth/components/register-form';

export function Component() {
  return (
    <AuthLayout title="Create your account" description="Start monitoring your email deliverability today.">
      <title>Sign up · Sendwell</title>
      <RegisterForm />
    </AuthLayout>
  );
}
