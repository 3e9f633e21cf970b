import { AuthLayout } from '@/components/layout/auth-layout';
import { LoginForm } from '@/features/auth/components/login-form';

export function Component() {
  return (
    <AuthLayout title="Welcome back" description="Sign in to monitor and improve your email deliverability.">
      <title>Log in · Sendwell</title>
      <LoginForm />
    </AuthLayout>
  );
}
