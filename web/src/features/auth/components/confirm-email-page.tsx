import type { ReactNode } from 'react';
import { useConfirmEmail } from '../mutations';
import { LinkLanding } from './link-landing';

/** The link sent to a new login e-mail (?token=…): the change takes effect, once, on arrival. */
export function ConfirmEmailPage(): ReactNode {
  return <LinkLanding spend={useConfirmEmail()} texts="confirmEmail" />;
}
