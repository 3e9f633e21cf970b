import { BarChart3, Bell, Globe, History, Lock } from 'lucide-react';
import { Link } from 'react-router';
import { buttonClass } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { paths } from '@/config/paths';

const items = [
  { icon: Globe, text: 'Multi-domain monitoring' },
  { icon: Bell, text: 'Real-time email alerts' },
  { icon: BarChart3, text: 'Detailed reports and analytics' },
  { icon: History, text: 'Historical tracking' },
] as const;

/**
 * The free plan's stand-in for Domains, Reports and Support (part 1 §2 "Upgrade-required screen").
 * `description` lets each screen say what it would have shown.
 */
export function UpgradeRequiredScreen({ description }: { description?: string }) {
  return (
    <div className="flex justify-center py-6 sm:py-10">
      <Card className="w-full max-w-xl" data-testid="upgrade-required">
        <CardHeader className="items-center text-center">
          <span className="mb-2 flex h-12 w-12 items-center justify-center rounded-full bg-primary/10 text-primary">
            <Lock className="h-6 w-6" aria-hidden="true" />
          </span>
          <CardTitle>Upgrade to Access This Feature</CardTitle>
          <CardDescription>{description ?? 'This feature is available on paid plans. Upgrade to unlock:'}</CardDescription>
        </CardHeader>
        <CardContent className="space-y-6">
          <ul className="grid grid-cols-1 gap-3 sm:grid-cols-2">
            {items.map(({ icon: Icon, text }) => (
              <li key={text} className="flex items-center gap-3 rounded-lg border bg-muted/40 p-3 text-sm">
                <Icon className="h-4 w-4 shrink-0 text-primary" aria-hidden="true" />
                {text}
              </li>
            ))}
          </ul>
          <div className="flex flex-col gap-2 sm:flex-row sm:justify-center">
            <Link to={paths.subscription} className={buttonClass('default')}>
              View Subscription Plans
            </Link>
            <Link to={paths.dashboard} className={buttonClass('outline')}>
              Return to Dashboard
            </Link>
          </div>
        </CardContent>
      </Card>
    </div>
  );
}
