import type { ReactNode } from 'react';
import { useConfirmEmail } from '../mutations';
import { LinkLanding } from './link-landing';

/** The link sent to a new login e-mail (?token=…): the change takes effect, once, on arrival. */
export function ConfirmEmailPage(): ReactNode {
  const confirm = useConfirmEmail();
  return (
    <LinkLanding
      spend={confirm}
      texts="confirmEmail"
      testId="confirm-email"
      signedInTo={{ path: '/preferences', label: 'confirmEmail.toPreferences' }}
    />
  );
}
