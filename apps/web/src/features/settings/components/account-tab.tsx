import type { User } from '@sendwell/contracts';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { toast } from '@/components/ui/toast-store';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/api-client';
import { useChangePassword } from '../api/change-password';
import { useDeleteAccount } from '../api/delete-account';
import { useExportAccount } from '../api/export-account';
import { useUpdateProfile } from '../api/update-profile';

const field = (form: HTMLFormElement, name: string): string => String(new FormData(form).get(name) ?? '');

/**
 * Part 1 §2 Account, made real: the profile and the password are saved by the server (which checks
 * them with the register rules and answers the message shown), the email stays read-only, the data
 * export downloads one JSON file, and deletion (confirmed with the password) ends the subscription,
 * deletes the account, logs out and goes to /login.
 */
export function AccountTab({ user }: { user: User }) {
  const navigate = useNavigate();
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [deletePassword, setDeletePassword] = useState('');
  const profile = useUpdateProfile();
  const password = useChangePassword();
  const exportData = useExportAccount();
  const removal = useDeleteAccount();

  const onProfile = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    profile.mutate(
      { firstName: field(form, 'firstName'), lastName: field(form, 'lastName'), username: field(form, 'username') },
      {
        onSuccess: () => toast({ title: 'Settings Updated', description: 'Your profile has been updated.' }),
        onError: (error) => toast({ title: 'Error', description: errorMessage(error, 'Failed to update your profile. Please try again.'), variant: 'destructive' }),
      },
    );
  };
  const onPassword = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    password.mutate(
      { currentPassword: field(form, 'currentPassword'), newPassword: field(form, 'newPassword'), confirmPassword: field(form, 'confirmPassword') },
      {
        onSuccess: () => {
          form.reset();
          toast({ title: 'Password Updated', description: 'Your password has been changed successfully.' });
        },
        onError: (error) => toast({ title: 'Error', description: errorMessage(error, 'Failed to change your password. Please try again.'), variant: 'destructive' }),
      },
    );
  };
  const onExport = () =>
    exportData.mutate(undefined, {
      onError: (error) => toast({ title: 'Error', description: errorMessage(error, 'Failed to export your data. Please try again.'), variant: 'destructive' }),
    });
  const onDelete = () =>
    removal.mutate(deletePassword, {
      onSuccess: ({ message }) => {
        setConfirmDelete(false);
        toast({ title: 'Account Deleted', description: message });
        navigate(paths.login);
      },
      onError: (error) => toast({ title: 'Error', description: errorMessage(error, 'Failed to delete your account. Please try again.'), variant: 'destructive' }),
    });

  return (
    <div className="space-y-6">
      <Card>
        <form onSubmit={onProfile}>
          <CardHeader>
            <CardTitle as="h2" className="text-lg">
              Profile
            </CardTitle>
            <CardDescription>Your name and username.</CardDescription>
          </CardHeader>
          <CardContent className="grid grid-cols-1 gap-4 sm:grid-cols-2">
            <FormField label="First name">
              <Input name="firstName" defaultValue={user.firstName ?? ''} autoComplete="given-name" />
            </FormField>
            <FormField label="Last name">
              <Input name="lastName" defaultValue={user.lastName ?? ''} autoComplete="family-name" />
            </FormField>
            <FormField label="Username">
              <Input name="username" defaultValue={user.username} autoComplete="username" />
            </FormField>
            <div className="space-y-1.5">
              <FormField label="Email">
                <Input value={user.email} readOnly aria-readonly="true" className="bg-muted" />
              </FormField>
              <p className="text-xs text-muted-foreground">Your email cannot be changed</p>
            </div>
          </CardContent>
          <CardFooter className="justify-end border-t pt-4">
            <Button type="submit" disabled={profile.isPending}>
              Save Profile
            </Button>
          </CardFooter>
        </form>
      </Card>

      <Card>
        <form onSubmit={onPassword}>
          <CardHeader>
            <CardTitle as="h2" className="text-lg">
              Change Password
            </CardTitle>
            <CardDescription>Every other device is signed out.</CardDescription>
          </CardHeader>
          <CardContent className="grid grid-cols-1 gap-4 sm:grid-cols-3">
            <FormField label="Current password">
              <Input type="password" name="currentPassword" autoComplete="current-password" />
            </FormField>
            <FormField label="New password">
              <Input type="password" name="newPassword" autoComplete="new-password" />
            </FormField>
            <FormField label="Confirm new password">
              <Input type="password" name="confirmPassword" autoComplete="new-password" />
            </FormField>
          </CardContent>
          <CardFooter className="justify-end border-t pt-4">
            <Button type="submit" disabled={password.isPending}>
              Update Password
            </Button>
          </CardFooter>
        </form>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle as="h2" className="text-lg">
            Your Data
          </CardTitle>
          <CardDescription>Everything Sendwell stores about you, as one JSON file (no passwords or integration secrets).</CardDescription>
        </CardHeader>
        <CardContent>
          <Button variant="outline" onClick={onExport} disabled={exportData.isPending}>
            Download my data
          </Button>
        </CardContent>
      </Card>

      <Card className="border-destructive/40">
        <CardHeader>
          <CardTitle as="h2" className="text-lg text-destructive">
            Delete Account
          </CardTitle>
          <CardDescription>Delete your account and stop monitoring every domain.</CardDescription>
        </CardHeader>
        <CardContent>
          <Button variant="destructive" onClick={() => setConfirmDelete(true)}>
            Delete Account
          </Button>
        </CardContent>
      </Card>

      <Dialog
        open={confirmDelete}
        onOpenChange={(open) => {
          setConfirmDelete(open);
          if (!open) setDeletePassword('');
        }}
      >
        <DialogContent>
          <form
            onSubmit={(e) => {
              e.preventDefault();
              onDelete();
            }}
          >
            <DialogHeader>
              <DialogTitle>Delete your account?</DialogTitle>
              <DialogDescription>
                Your subscription ends now and every domain, scan, alert and report is deleted. You will be logged out.
              </DialogDescription>
            </DialogHeader>
            <div className="py-4">
              <FormField label="Password">
                <Input type="password" name="password" autoComplete="current-password" value={deletePassword} onChange={(e) => setDeletePassword(e.target.value)} />
              </FormField>
            </div>
            <DialogFooter>
              <Button type="button" variant="outline" onClick={() => setConfirmDelete(false)}>
                Cancel
              </Button>
              <Button type="submit" variant="destructive" disabled={removal.isPending}>
                Delete Account
              </Button>
            </DialogFooter>
          </form>
        </DialogContent>
      </Dialog>
    </div>
  );
}
