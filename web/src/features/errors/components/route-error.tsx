import { Alert, Button, Center, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useRouteError } from 'react-router';
import { errorText } from '../../../lib/errors';
import { FloatingMiniPlayer } from '../../player/components/mini-player';

/** Shown when a page cannot load (the server is down, a chunk failed to load…), in place of
 * the shell: the player's bar stays while a concert plays. */
export function RouteError(): ReactNode {
  const { t } = useTranslation();
  const error = useRouteError();
  return (
    <>
      <Center mih="60vh" p="md">
        <Stack align="center" maw={520}>
          <Alert color="red" title={t('errorsPage.loadFailedTitle')} w="100%">
            {errorText(error, t)}
          </Alert>
          <Button component={Link} to="/home" variant="light" reloadDocument>
            {t('errorsPage.tryAgain')}
          </Button>
        </Stack>
      </Center>
      <FloatingMiniPlayer />
    </>
  );
}
