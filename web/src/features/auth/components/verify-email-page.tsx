import { Button } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useVerifyEmail } from '../mutations';
import { LinkLanding } from './link-landing';

/** The welcome e-mail's link (?token=…): verifies the address once, on arrival. */
export function VerifyEmailPage(): ReactNode {
  const { t } = useTranslation('auth');
  const verify = useVerifyEmail();
  return (
    <LinkLanding
      spend={verify}
      texts="verifyEmail"
      onFailure={
        <Button component={Link} to="/preferences" variant="light">
          {t('verifyEmail.askAgain')}
        </Button>
      }
    />
  );
}
