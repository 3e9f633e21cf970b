import { useSearchParams } from 'react-router';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useUser } from '@/lib/auth/auth-provider';
import { AccountTab } from './account-tab';
import { GeneralTab } from './general-tab';
import { NotificationsTab } from './notifications-tab';

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
          <TabsTrigger value="notifications">Notifications</TabsTrigger>
          <TabsTrigger value="account">Account</TabsTrigger>
        </TabsList>
        <TabsContent value="general">
          <GeneralTab user={user} />
        </TabsContent>
        <TabsContent value="notifications">
          <NotificationsTab plan={user.planType} />
        </TabsContent>
        <TabsContent value="account">
          <AccountTab user={user} />
        </TabsContent>
      </Tabs>
    </div>
  );
}
