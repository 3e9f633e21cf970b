import { ShieldCheck } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { PrerenderedFieldset } from '@/components/ui/prerendered-fieldset';
import { paths } from '@/config/paths';
import { clearCurrencyOverride } from '@/lib/currency';

/**
 * The contracts' rules are loaded when the visitor starts typing, not with the page: they bring zod,
 * which the landing page's first load cannot afford (150 KB budget).
 */
const loadRules = () => import('@sendwell/contracts').then(({ landingDomainError }) => landingDomainError);

/** Domain input with the landing rules in order; a valid domain goes to registration (part 2 §2.8, §5). */
export function Hero() {
  const navigate = useNavigate();
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);

  const validDomain = async (): Promise<string | null> => {
    const problem = (await loadRules())(value);
    setError(problem);
    return problem ? null : value.trim().toLowerCase();
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const domain = await validDomain();
    if (!domain) return;
    clearCurrencyOverride();
    navigate(`${paths.register}?domain=${encodeURIComponent(domain)}&source=landing_page`);
  };

  const onQuickCheck = async () => {
    const domain = await validDomain();
    if (domain) navigate(paths.quickCheck(domain));
  };

  return (
    <section className="bg-gradient-to-b from-blue-50 to-background px-4 pb-16 pt-14 dark:from-blue-950/40 sm:pt-20">
      <div className="mx-auto max-w-3xl text-center">
        <p className="mx-auto mb-4 inline-flex items-center gap-2 rounded-full border bg-background px-3 py-1 text-xs font-medium text-muted-foreground">
          <ShieldCheck className="h-4 w-4 text-green-600" aria-hidden="true" /> Email deliverability monitoring since May 2025
        </p>
        <h1 className="text-4xl font-extrabold tracking-tight sm:text-5xl">Make sure your email lands in the inbox</h1>
        <p className="mx-auto mt-4 max-w-2xl text-lg text-muted-foreground">
          Sendwell watches SPF, DKIM, DMARC, blacklists, SSL and DNS for your domains and tells you, in plain words, what to fix before
          your customers stop getting your mail.
        </p>
        <form onSubmit={onSubmit} noValidate className="mx-auto mt-8 max-w-xl">
          <PrerenderedFieldset>
            <div className="flex flex-col gap-2 sm:flex-row">
              <label htmlFor="hero-domain" className="sr-only">
                Your domain
              </label>
              <Input
                id="hero-domain"
                value={value}
                onFocus={() => void loadRules()}
                onChange={(e) => {
                  setValue(e.target.value);
                  setError(null);
                }}
                placeholder="example.com"
                autoComplete="url"
                inputMode="url"
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? 'hero-domain-error' : undefined}
                className="h-12 text-base"
              />
              <Button type="submit" size="lg" className="h-12">
                Create Free Account
              </Button>
            </div>
            {error ? (
              <p id="hero-domain-error" role="alert" className="mt-2 text-left text-sm font-medium text-destructive">
                {error}
              </p>
            ) : null}
            <p className="mt-3 text-sm text-muted-foreground">
              Free forever for one domain. Or{' '}
              <button type="button" onClick={onQuickCheck} className="font-medium text-primary underline-offset-4 hover:underline">
                run a free quick check
              </button>{' '}
              without an account.
            </p>
          </PrerenderedFieldset>
        </form>
      </div>
    </section>
  );
}
