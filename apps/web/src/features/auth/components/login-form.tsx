import type { LoginBody } from '@sendwell/contracts';
import { useState } from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { PrerenderedFieldset } from '@/components/ui/prerendered-fieldset';
import { toast } from '@/components/ui/toast-store';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/api-client';
import { useAuth } from '@/lib/auth/auth-provider';
import { useForgotPassword } from '../api/forgot-password';
import { useLogin } from '../api/login';

export const EMAIL_FIRST = 'Please enter your email address first.';

/**
 * zod and the contracts' login schema (~45 KB gzip) load when the form is first used, not with
 * /login: on a phone they cost the page's first paint more than any validation is worth.
 */
let resolverPromise: Promise<Resolver<LoginBody>> | undefined;
const loadResolver = () =>
  (resolverPromise ??= Promise.all([
    import('@hookform/resolvers/zod').then(({ zodResolver }) => zodResolver),
    import('@sendwell/contracts').then(({ loginSchema }) => loginSchema),
  ]).then(([zodResolver, loginSchema]) => zodResolver(loginSchema)));
const lazyResolver: Resolver<LoginBody> = async (values, context, options) => (await loadResolver())(values, context, options);

/** Sign-in with the Forgot password action (part 1 §2, §5, §8). */
export function LoginForm() {
  const navigate = useNavigate();
  const { signIn } = useAuth();
  const login = useLogin();
  const forgot = useForgotPassword();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<LoginBody>({ resolver: lazyResolver, defaultValues: { email: '', password: '' } });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      const answer = await login.mutateAsync(values);
      signIn(answer.token, answer.user);
      navigate(paths.dashboard);
    } catch (error) {
      setFailure(errorMessage(error, 'Failed to log in. Please check your credentials.'));
    }
  });

  const onForgot = async () => {
    const email = form.getValues('email').trim();
    if (!email) {
      form.setError('email', { message: EMAIL_FIRST });
      return;
    }
    try {
      await forgot.mutateAsync(email);
      toast({ title: 'Reset email sent', description: 'Check your email for password reset instructions.' });
    } catch (error) {
      toast({ title: 'Error', description: errorMessage(error, 'Failed to send reset email. Please try again.'), variant: 'destructive' });
    }
  };

  return (
    <form onSubmit={onSubmit} onFocus={() => void loadResolver()} noValidate className="space-y-4">
      <PrerenderedFieldset className="space-y-4">
        {failure ? <Alert variant="destructive">{failure}</Alert> : null}
        <FormField label="Email" error={errors.email?.message}>
          <Input type="email" autoComplete="email" placeholder="you@company.com" {...form.register('email')} />
        </FormField>
        <FormField label="Password" error={errors.password?.message}>
          <Input type="password" autoComplete="current-password" {...form.register('password')} />
        </FormField>
        <div className="flex justify-end">
          <Button variant="link" className="h-auto p-0 text-sm" onClick={onForgot} disabled={forgot.isPending}>
            {forgot.isPending ? 'Sending…' : 'Forgot password?'}
          </Button>
        </div>
        <Button type="submit" className="w-full" disabled={form.formState.isSubmitting}>
          {form.formState.isSubmitting ? 'Signing in…' : 'Sign in'}
        </Button>
      </PrerenderedFieldset>
      <p className="text-center text-sm text-muted-foreground">
        Don't have an account?{' '}
        <Link to={paths.register} className="font-medium text-primary hover:underline">
          Sign up
        </Link>
      </p>
    </form>
  );
}
