import { Spinner } from '@/components/ui/spinner';
import { Alert } from '@/components/ui/alert';
import { EXPIRED_TEXT, RECEIVED_TEXT, WAITING_TEXT } from '../lib/mail-test-display';
import { NewTestButton } from './new-test-button';

/** The address is open: what to send, and that the screen is listening. */
export function WaitingForMessage() {
  return (
    <div className="flex gap-3 rounded-lg border border-dashed p-4" data-testid="mail-test-waiting">
      <Spinner className="mt-0.5 self-start text-primary" label={WAITING_TEXT} />
      <div className="space-y-1 text-sm">
        <p className="font-semibold" aria-hidden="true">
          {WAITING_TEXT}
        </p>
        <p>
          Send a real message to this address from your usual mail system, the way you send to your customers: the same service, the same From address, the same
          template. A message typed into a personal mailbox tests that mailbox, not your mail.
        </p>
        <p className="text-muted-foreground">This page updates by itself when the message arrives.</p>
      </div>
    </div>
  );
}

export function ReadingMessage() {
  return (
    <div className="flex gap-3 rounded-lg border p-4" data-testid="mail-test-received">
      <Spinner className="mt-0.5 self-start text-primary" label={RECEIVED_TEXT} />
      <div className="space-y-1 text-sm">
        <p className="font-semibold" aria-hidden="true">
          {RECEIVED_TEXT}
        </p>
        <p className="text-muted-foreground">We are checking the connection, authentication, headers and content. This takes a few seconds.</p>
      </div>
    </div>
  );
}

export function TestFailed({ error }: { error: string | null }) {
  return (
    <Alert variant="destructive" title="This message could not be read">
      <p data-testid="mail-test-error">{error ?? 'Something went wrong while reading it. Please send it again to a new test address.'}</p>
    </Alert>
  );
}

export function TestExpired({ onCreated }: { onCreated: (id: number) => void }) {
  return (
    <div className="space-y-3 rounded-lg border p-4 text-sm" data-testid="mail-test-expired">
      <p>{EXPIRED_TEXT} Start a new test and send your message within the hour.</p>
      <NewTestButton onCreated={onCreated} />
    </div>
  );
}
