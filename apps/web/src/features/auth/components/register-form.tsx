import { zodResolver } from '@hookform/resolvers/zod';
import { isPaidPlan, registerSchema, signupSourceSchema, type RegisterBody } from '@sendwell/contracts';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import type { z } from 'zod';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { paths } from '@/config/paths';
import { storageKeys } from '@/config/storage-keys';
import { errorMessage } from '@/lib/api-client';
import { useAuth } from '@/lib/auth/auth-provider';
import { useRegister } from '../api/register';
import { requestPlanAfterRegistration } from '../api/update-plan';
import { CheckEmailPanel } from './check-email-panel';

/** Registration waits this long before the plan update and the redirect (part 1 §9). */
export const AFTER_REGISTRATION_PAUSE_MS = 100;

type FormInput = z.input<typeof registerSchema>;
type FormOutput = z.output<typeof registerSchema>;

/** The register screen's query parameters: plan, domain, scan (true) and source (part 1 §2). */
export function readRegisterParams(params: URLSearchParams) {
  const plan = params.get('plan');
  const domain = params.get('domain')?.trim().toLowerCase() || null;
  const source = signupSourceSchema.catch('direct').parse(params.get('source') ?? 'direct');
  return { plan: plan && isPaidPlan(plan) ? plan : null, domain, scan: params.get('scan') === 'true', source };
}

export function RegisterForm() {
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const { plan, domain, source } = readRegisterParams(searchParams);
  const { signIn } = useAuth();
  const register = useRegister();
  const [failure, setFailure] = useState<string | null>(null);
  const [pendingEmail, setPendingEmail] = useState<string | null>(null);
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(registerSchema),
    defaultValues: { username: '', email: '', confirmEmail: '', password: '', confirmPassword: '', firstName: '', lastName: '' },
  });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    setFailure(null);
    const body: RegisterBody = {
      username: values.username,
      email: values.email,
      confirmEmail: values.confirmEmail,
      password: values.password,
      confirmPassword: values.confirmPassword,
      firstName: values.firstName,
      lastName: values.lastName,
      signupSource: source,
      quickCheckDomain: domain,
      showUpgradeNotification: Boolean(domain),
    };
    try {
      const answer = await register.mutateAsync(body);
      if ('emailVerificationRequired' in answer) {
        // The mailed link may open in another tab: the plan waits in local storage for it.
        if (plan) localStorage.setItem(storageKeys.pendingPlan, plan);
        setPendingEmail(values.email);
        return;
      }
      signIn(answer.token, answer.user);
      await new Promise((r) => setTimeout(r, AFTER_REGISTRATION_PAUSE_MS));
      if (plan) {
        await requestPlanAfterRegistration(plan);
        navigate(`${paths.subscription}?plan=${plan}`);
      } else {
        navigate(paths.dashboard);
      }
    } catch (error) {
      setFailure(errorMessage(error, 'Failed to register. Please try again.'));
    }
  });

  if (pendingEmail) return <CheckEmailPanel email={pendingEmail} onTryAgain={() => setPendingEmail(null)} />;

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      {domain ? (
        <Alert>
          Create your free account to keep monitoring <strong>{domain}</strong>.
        </Alert>
      ) : null}
      {plan ? <Alert>You picked a paid plan; you can confirm it right after creating your account.</Alert> : null}
      {failure ? <Alert variant="destructive">{failure}</Alert> : null}
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <FormField label="First name (optional)" error={errors.firstName?.message}>
          <Input autoComplete="given-name" {...form.register('firstName')} />
        </FormField>
        <FormField label="Last name (optional)" error={errors.lastName?.message}>
          <Input autoComplete="family-name" {...form.register('lastName')} />
        </FormField>
      </div>
      <FormField label="Username" error={errors.username?.message}>
        <Input autoComplete="username" {...form.register('username')} />
      </FormField>
      <FormField label="Email" error={errors.email?.message}>
        <Input type="email" autoComplete="email" {...form.register('email')} />
      </FormField>
      <FormField label="Confirm email" error={errors.confirmEmail?.message}>
        <Input type="email" autoComplete="email" {...form.register('confirmEmail')} />
      </FormField>
      <FormField label="Password" error={errors.password?.message}>
        <Input type="password" autoComplete="new-password" {...form.register('password')} />
      </FormField>
      <FormField label="Confirm password" error={errors.confirmPassword?.message}>
        <Input type="password" autoComplete="new-password" {...form.register('confirmPassword')} />
      </FormField>
      <Button type="submit" className="w-full" disabled={form.formState.isSubmitting}>
        {form.formState.isSubmitting ? 'Creating account…' : 'Create account'}
      </Button>
      <p className="text-center text-sm text-muted-foreground">
        Already have an account?{' '}
        <Link to={paths.login} className="font-medium text-primary hover:underline">
          Log in
        </Link>
      </p>
    </form>
  );
}
