import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useUser } from '@/lib/auth/auth-provider';
import { AccountTab } from './account-tab';
import { GeneralTab } from './general-tab';
import { NotificationsTab } from './notifications-tab';

/** /settings: General, Notifications and Account tabs (part 1 §2). */
export function SettingsPage() {
  const user = useUser();
  return (
    <div className="mx-auto max-w-5xl space-y-2">
      <h2 className="text-2xl font-bold tracking-tight">Settings</h2>
      <p className="text-sm text-muted-foreground">Manage your preferences, notifications and account.</p>
      <Tabs defaultValue="general" className="pt-4">
        <TabsList aria-label="Settings sections">
          <TabsTrigger value="general">General</TabsTrigger>
          <TabsTrigger value="notifications">Notifications</TabsTrigger>
          <TabsTrigger value="account">Account</TabsTrigger>
        </TabsList>
        <TabsContent value="general">
          <GeneralTab user={user} />
        </TabsContent>
        <TabsContent value="notifications">
          <NotificationsTab />
        </TabsContent>
        <TabsContent value="account">
          <AccountTab user={user} />
        </TabsContent>
      </Tabs>
    </div>
  );
}
