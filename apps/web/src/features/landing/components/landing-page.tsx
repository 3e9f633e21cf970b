import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { Faq } from './faq';
import { Hero } from './hero';
import { LandingHeader } from './landing-header';
import { LazyPricing } from './lazy-pricing';
import { ExampleDomainCard, Features, Integrations, MarketingPlatforms, PaidVsFree, SignupSteps, StatsTiles, Testimonial } from './sections';

/** The public landing page (part 2 §2.8). */
export function LandingPage() {
  return (
    <div className="min-h-screen">
      <LandingHeader />
      <main>
        <Hero />
        <StatsTiles />
        <PaidVsFree />
        <Testimonial />
        <ExampleDomainCard />
        <Features />
        <Integrations />
        <MarketingPlatforms />
        <LazyPricing />
        <SignupSteps />
        <Faq />
      </main>
      <footer className="border-t px-4 py-8 text-center text-sm text-muted-foreground">
        <p>© {__BUILD_YEAR__} Sendwell · Email deliverability monitoring</p>
        <p className="mt-2 space-x-4">
          <Link to={paths.login} className="hover:text-foreground">Login</Link>
          <Link to={paths.register} className="hover:text-foreground">Sign Up</Link>
          <a href="#faq" className="hover:text-foreground">FAQ</a>
        </p>
      </footer>
    </div>
  );
}
