import { Link } from 'react-router';
import { buttonClass } from '@/components/ui/button';
import { Logo } from '@/components/layout/logo';
import { CurrencySelect } from '@/components/pricing/currency-select';
import { paths } from '@/config/paths';

/** Header: currency selector, Login, Sign Up (part 2 §2.8). */
export function LandingHeader() {
  return (
    <header className="sticky top-0 z-40 border-b bg-background/95 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-6xl items-center gap-3 px-4">
        <Link to={paths.landing} aria-label="Sendwell home" className="mr-auto">
          <Logo />
        </Link>
        <nav aria-label="Sections" className="hidden items-center gap-5 text-sm font-medium text-muted-foreground md:flex">
          <a href="#features" className="hover:text-foreground">Features</a>
          <a href="#pricing" className="hover:text-foreground">Pricing</a>
          <a href="#faq" className="hover:text-foreground">FAQ</a>
        </nav>
        <CurrencySelect />
        <Link to={paths.login} className={buttonClass('ghost', 'sm')}>
          Login
        </Link>
        <Link to={paths.register} className={buttonClass('default', 'sm', 'hidden min-[400px]:inline-flex')}>
          Sign Up
        </Link>
      </div>
    </header>
  );
}
