import { Button, Center, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { StatusPanel } from '../../../components/status-panel';
import { FloatingMiniPlayer } from '../../player/components/mini-player';

/** A whole-screen error (403, 404): the code, what it means, and the way back to the dashboard;
 * the player's bar stays while a concert plays (a fan who followed a staff link hears on). */
export function ErrorPage({ code, kind }: { code: 403 | 404; kind: 'forbidden' | 'notFound' }): ReactNode {
  const { t } = useTranslation();
  return (
    <>
      <Center mih="100vh" p="md">
        <StatusPanel
          mark={
            <Title order={1} fz={96} c="dimmed" aria-hidden>
              {code}
            </Title>
          }
          title={t(`errorsPage.${kind}Title`)}
          titleTestId={kind === 'forbidden' ? 'forbidden-title' : 'not-found-title'}
          text={t(`errorsPage.${kind}Text`)}
          action={
            <Button component={Link} to="/dashboard" size="md">
              {t('errorsPage.backToDashboard')}
            </Button>
          }
        />
      </Center>
      <FloatingMiniPlayer />
    </>
  );
}
