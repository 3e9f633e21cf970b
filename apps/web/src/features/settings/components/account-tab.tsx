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
import { useAuth } from '@/lib/auth/auth-provider';

/**
 * Part 1 §2 Account: profile fields whose Save only shows a toast, the email read-only, a password form
 * that only shows a success toast (no validation), and account deletion that shows a toast, logs out
 * and goes to /login without a call — all exactly as the spec describes.
 */
export function AccountTab({ user }: { user: User }) {
  const { signOut } = useAuth();
  const navigate = useNavigate();
  const [confirmDelete, setConfirmDelete] = useState(false);

  const onProfile = (e: FormEvent) => {
    e.preventDefault();
    toast({ title: 'Settings Updated', description: 'Your profile has been updated.' });
  };
  const onPassword = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    e.currentTarget.reset();
    toast({ title: 'Password Updated', description: 'Your password has been changed successfully.' });
  };
  const onDelete = async () => {
    setConfirmDelete(false);
    toast({ title: 'Account Deletion Requested', description: 'You have been logged out.' });
    await signOut();
    navigate(paths.login);
  };

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
          <CardContent className="grid gap-4 sm:grid-cols-2">
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
            <Button type="submit">Save Profile</Button>
          </CardFooter>
        </form>
      </Card>

      <Card>
        <form onSubmit={onPassword}>
          <CardHeader>
            <CardTitle as="h2" className="text-lg">
              Change Password
            </CardTitle>
          </CardHeader>
          <CardContent className="grid gap-4 sm:grid-cols-3">
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
            <Button type="submit">Update Password</Button>
          </CardFooter>
        </form>
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

      <Dialog open={confirmDelete} onOpenChange={setConfirmDelete}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Delete your account?</DialogTitle>
            <DialogDescription>You will be logged out.</DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <Button variant="outline" onClick={() => setConfirmDelete(false)}>
              Cancel
            </Button>
            <Button variant="destructive" onClick={() => void onDelete()}>
              Delete Account
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </div>
  );
}
