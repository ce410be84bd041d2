import { Alert, Button, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useSearchParams } from 'react-router';
import { loginPath } from '../../../app/guard';
import { errorText } from '../../../lib/errors';
import { approveQrRequest } from '../api';
import { qrRequestQueryOptions } from '../queries';
import { useAuthStatus } from '../session';

/** /auth/qr?id=…: approve, from this signed-in device, a sign-in shown as a QR code elsewhere. */
export function QrApprovePage(): ReactNode {
  const { t } = useTranslation('auth');
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const { hasToken } = useAuthStatus();
  const info = useQuery({ ...qrRequestQueryOptions(id), enabled: hasToken && id.length > 0 });
  const approve = useMutation({ mutationFn: () => approveQrRequest(id) });

  if (!hasToken) return <Navigate to={loginPath(`/auth/qr?id=${encodeURIComponent(id)}`)} replace />;
  if (!id) return <Alert color="red">{t('qr.missingId')}</Alert>;
  if (info.isPending) return <Loader mx="auto" display="block" />;
  if (info.isError) return <Alert color="red">{errorText(info.error, t)}</Alert>;
  if (approve.isSuccess) {
    return (
      <Stack>
        <Title order={3}>{t('qr.approvedTitle')}</Title>
        <Text c="dimmed">{t('qr.approvedText')}</Text>
        <Button component={Link} to="/dashboard">
          {t('common:errorsPage.backToDashboard')}
        </Button>
      </Stack>
    );
  }
  return (
    <Stack>
      <Title order={3}>{t('qr.approveTitle')}</Title>
      <Text>{t('qr.approveText', { client: info.data.client_name })}</Text>
      {approve.isError ? <Alert color="red">{errorText(approve.error, t)}</Alert> : null}
      <Group>
        <Button
          onClick={() => {
            approve.mutate();
          }}
          loading={approve.isPending}
          data-testid="qr-approve"
        >
          {t('qr.approve')}
        </Button>
        <Button component={Link} to="/dashboard" variant="default">
          {t('qr.deny')}
        </Button>
      </Group>
    </Stack>
  );
}
