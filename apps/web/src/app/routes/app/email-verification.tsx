import { EmailVerificationPage } from '@/features/email-verification/components/email-verification-page';

export function Component() {
  return <EmailVerificationPage />;
}
