import { Alert, Button, Chip, Group, Loader, PasswordInput, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useSearchParams } from 'react-router';
import { loginPath } from '../redirect';
import { errorText } from '../../../lib/errors';
import { useApproveQr } from '../mutations';
import { qrRequestQueryOptions } from '../queries';
import { useAuthStatus } from '../session';

/** /auth/qr?id=…: approve, from this signed-in device, a sign-in shown as a QR code elsewhere.
 * It shows the asking device and its address, and takes the number that device shows (a wrong
 * one cancels the request) and the current password. */
export function QrApprovePage(): ReactNode {
  const { t } = useTranslation('auth');
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const { hasToken } = useAuthStatus();
  const [number, setNumber] = useState<string | null>(null);
  const [password, setPassword] = useState('');
  const info = useQuery({ ...qrRequestQueryOptions(id), enabled: hasToken && id.length > 0 });
  const approve = useApproveQr(id);

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
  const ready = number !== null && password.length > 0;
  return (
    <Stack>
      <Title order={3}>{t('qr.approveTitle')}</Title>
      <Text>{t('qr.approveText', { client: info.data.client_name })}</Text>
      <Table variant="vertical" withTableBorder data-testid="qr-request">
        <Table.Tbody>
          <Table.Tr>
            <Table.Th w={140}>{t('qr.device')}</Table.Th>
            <Table.Td data-testid="qr-device">{info.data.device || t('qr.unknownDevice')}</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th>{t('qr.place')}</Table.Th>
            <Table.Td data-testid="qr-place">{info.data.place}</Table.Td>
          </Table.Tr>
        </Table.Tbody>
      </Table>
      <Text size="xs" c="dimmed">
        {t('qr.placeHint')}
      </Text>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (ready) approve.mutate({ number: Number(number), password });
        }}
        noValidate
      >
        <Stack gap="sm">
          <Text fw={500}>{t('qr.pickNumber')}</Text>
          <Chip.Group multiple={false} value={number} onChange={setNumber}>
            <Group data-testid="qr-numbers">
              {info.data.numbers.map((n) => (
                <Chip key={n} value={String(n)} size="lg" data-testid={`qr-number-${String(n)}`}>
                  {n}
                </Chip>
              ))}
            </Group>
          </Chip.Group>
          <PasswordInput
            label={t('qr.password')}
            autoComplete="current-password"
            value={password}
            onChange={(event) => {
              setPassword(event.currentTarget.value);
            }}
            data-testid="qr-password"
          />
          {approve.isError ? <Alert color="red">{errorText(approve.error, t)}</Alert> : null}
          <Group>
            <Button type="submit" disabled={!ready} loading={approve.isPending} data-testid="qr-approve">
              {t('qr.approve')}
            </Button>
            <Button component={Link} to="/dashboard" variant="default">
              {t('qr.deny')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}
