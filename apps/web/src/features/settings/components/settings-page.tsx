import { lazy, Suspense } from 'react';
import { useSearchParams } from 'react-router';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useUser } from '@/lib/auth/auth-provider';
import { GeneralTab } from './general-tab';

// The General tab opens first; the others load when reached for (pointer or focus on their trigger).
const loadNotifications = () => import('./notifications-tab');
const loadAccount = () => import('./account-tab');
const NotificationsTab = lazy(() => loadNotifications().then((m) => ({ default: m.NotificationsTab })));
const AccountTab = lazy(() => loadAccount().then((m) => ({ default: m.AccountTab })));
const loadingTab = <p className="py-6 text-sm text-muted-foreground">Loading…</p>;

/** /settings: General, Notifications and Account tabs (part 1 §2). */
export function SettingsPage() {
  const user = useUser();
  // `?tab=notifications` opens that tab (the integrations page's Email Notifications card links there).
  const [params] = useSearchParams();
  const tab = ['general', 'notifications', 'account'].includes(params.get('tab') ?? '') ? params.get('tab')! : 'general';
  return (
    <div className="mx-auto max-w-5xl space-y-2">
      <h2 className="text-2xl font-bold tracking-tight">Settings</h2>
      <p className="text-sm text-muted-foreground">Manage your preferences, notifications and account.</p>
      <Tabs defaultValue={tab} className="pt-4">
        <TabsList aria-label="Settings sections">
          <TabsTrigger value="general">General</TabsTrigger>
          <TabsTrigger value="notifications" onPointerEnter={() => void loadNotifications()} onFocus={() => void loadNotifications()}>
            Notifications
          </TabsTrigger>
          <TabsTrigger value="account" onPointerEnter={() => void loadAccount()} onFocus={() => void loadAccount()}>
            Account
          </TabsTrigger>
        </TabsList>
        <TabsContent value="general">
          <GeneralTab user={user} />
        </TabsContent>
        <TabsContent value="notifications">
          <Suspense fallback={loadingTab}>
            <NotificationsTab plan={user.planType} />
          </Suspense>
        </TabsContent>
        <TabsContent value="account">
          <Suspense fallback={loadingTab}>
            <AccountTab user={user} />
          </Suspense>
        </TabsContent>
      </Tabs>
    </div>
  );
}
