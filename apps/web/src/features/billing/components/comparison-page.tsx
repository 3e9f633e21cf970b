import { Link } from 'react-router';
import { Logo } from '@/components/layout/logo';
import { CurrencySelect } from '@/components/pricing/currency-select';
import { Pricing } from '@/components/pricing/pricing';
import { buttonClass } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { useAuth } from '@/lib/auth/auth-provider';
import { useCurrency } from '@/lib/hooks/use-currency';

/** The public plan comparison (part 2 §2.1): where a visitor compares plans before signing up. */
export function ComparisonPage() {
  const [currency] = useCurrency();
  const { status } = useAuth();
  const signedIn = status === 'authenticated';
  return (
    <div className="min-h-screen bg-background">
      <header className="border-b">
        <div className="mx-auto flex h-16 max-w-6xl items-center gap-3 px-4">
          <Link to={paths.landing} aria-label="Sendwell home" className="mr-auto">
            <Logo />
          </Link>
          <CurrencySelect />
          {signedIn ? (
            <Link to={paths.subscription} className={buttonClass('default', 'sm')}>
              Choose a plan
            </Link>
          ) : (
            <>
              <Link to={paths.login} className={buttonClass('ghost', 'sm')}>
                Login
              </Link>
              <Link to={paths.register} className={buttonClass('default', 'sm')}>
                Sign Up
              </Link>
            </>
          )}
        </div>
      </header>
      <main className="mx-auto max-w-6xl px-4 pb-16">
        <h1 className="sr-only">Compare Sendwell plans</h1>
        <Pricing currency={currency} />
      </main>
    </div>
  );
}
