import { zodResolver } from '@hookform/resolvers/zod';
import { createDomainBody, EXAMPLE_HOST, type CreateDomainBody } from '@sendwell/contracts';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { toast } from '@/components/ui/toast-store';
import { paths } from '@/config/paths';
import { useCreateDomain } from '@/lib/api/create-domain';
import { ApiRequestError } from '@/lib/api-client';
import { MOBILE_QUERY, useMediaQuery } from '@/lib/hooks/use-media-query';

const DOMAIN_LIMIT_INLINE = 'Your free plan is limited to 1 domain. Please upgrade to add more domains.';
const UNEXPECTED = 'An unexpected error occurred. Please try again.';

/** Part 1 §8: the limit path is taken when the message says so or the answer carries requiresUpgrade. */
function isDomainLimitError(error: unknown): boolean {
  if (error instanceof ApiRequestError) {
    return error.requiresUpgrade || (error.apiError?.message ?? error.message).includes('limited to 1 domain');
  }
  return error instanceof Error && error.message.includes('limited to 1 domain');
}

function addErrorMessage(error: unknown): string {
  if (error instanceof ApiRequestError) return error.apiError?.message || error.message || UNEXPECTED;
  if (error instanceof Error) return error.message || UNEXPECTED;
  if (typeof error === 'string' && error) return error;
  return UNEXPECTED;
}

/**
 * The Add Domain dialog and its form (part 1 §2, §5, §8). The name is trimmed and lower-cased by the
 * contracts' schema, whose messages show. Loaded when its button is first pressed (add-domain-dialog.tsx).
 */
export default function AddDomainFormDialog({ open, setOpen }: { open: boolean; setOpen: (open: boolean) => void }) {
  const [limitReached, setLimitReached] = useState(false);
  const navigate = useNavigate();
  const mobile = useMediaQuery(MOBILE_QUERY);
  const create = useCreateDomain();
  const form = useForm<CreateDomainBody>({ resolver: zodResolver(createDomainBody), defaultValues: { name: '' } });

  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (!next) {
      form.reset();
      setLimitReached(false);
      create.reset();
    }
  };

  const onSubmit = form.handleSubmit(async ({ name }) => {
    setLimitReached(false);
    try {
      const answer = await create.mutateAsync(name);
      toast({
        title: answer.restored ? 'Domain Restored' : 'Domain Added',
        description: answer.restored ? `${answer.domain.name} has been restored to your active domains` : `${answer.domain.name} is now being monitored. The first scan has started.`,
      });
      form.reset();
      setOpen(false);
    } catch (error) {
      if (isDomainLimitError(error)) {
        setLimitReached(true);
        toast({
          title: 'Domain Limit Reached',
          description: 'Your free plan includes 1 domain. To add more domains, please upgrade your plan.',
          variant: 'destructive',
          action: { label: 'View Plans', onClick: () => navigate(paths.subscription) },
        });
        return;
      }
      toast({ title: 'Error', description: addErrorMessage(error), variant: 'destructive' });
    }
  });

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Add Domain</DialogTitle>
          <DialogDescription>Enter a domain to monitor its SPF, DKIM, DMARC, blacklist, SSL and DNS health.</DialogDescription>
        </DialogHeader>
        <form onSubmit={onSubmit} noValidate className="space-y-4">
          <FormField label="Domain name" error={form.formState.errors.name?.message}>
            <Input
              autoFocus
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              inputMode="url"
              placeholder={mobile ? 'Enter your domain' : EXAMPLE_HOST}
              {...form.register('name')}
            />
          </FormField>
          {limitReached ? (
            <Alert variant="destructive">
              <p>{DOMAIN_LIMIT_INLINE}</p>
              {/* The toast's action sits outside this modal dialog, so the way on is offered here too. */}
              <Link to={paths.subscription} className="mt-2 inline-block font-medium underline underline-offset-4">
                View Plans
              </Link>
            </Alert>
          ) : null}
          <DialogFooter>
            <Button variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={create.isPending}>
              {create.isPending ? 'Adding...' : 'Add Domain'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
