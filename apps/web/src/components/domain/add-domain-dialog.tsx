import { Plus } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { Button } from '@/components/ui/button';

// The form, its schema and the form library load with the first press: most visits add no domain.
const AddDomainFormDialog = lazy(() => import('./add-domain-form-dialog'));

/** The Add Domain button (part 1 §2), shared by the dashboard overview and the domains page; its dialog loads on first use. */
export function AddDomainDialog({ trigger = 'button', buttonLabel = 'Add Domain' }: { trigger?: 'button' | 'large'; buttonLabel?: string }) {
  const [open, setOpen] = useState(false);
  const [used, setUsed] = useState(false);
  return (
    <>
      <Button
        size={trigger === 'large' ? 'lg' : 'default'}
        // Fetched as the pointer arrives, so the dialog usually opens without a wait.
        onPointerEnter={() => void import('./add-domain-form-dialog')}
        onClick={() => {
          setUsed(true);
          setOpen(true);
        }}
      >
        <Plus className="h-4 w-4" aria-hidden="true" />
        {buttonLabel}
      </Button>
      {used ? (
        <Suspense fallback={null}>
          <AddDomainFormDialog open={open} setOpen={setOpen} />
        </Suspense>
      ) : null}
    </>
  );
}
