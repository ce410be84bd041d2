import { Alert, Button, Center, Paper, Stack, Text } from '@mantine/core';
import { IconQrcode } from '@tabler/icons-react';
import { QRCodeSVG } from 'qrcode.react';
import { useEffect, useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../lib/errors';
import { exchangeCode, pollQrSignIn } from '../api';
import type { QrStart } from '../api';
import { useStartQrSignIn } from '../mutations';

/** QR sign-in: show approve_url as a QR code and the number to pick there, poll until a
 * signed-in device approves. An account with two-step verification then does its SMS step
 * here (`onSecondFactor`). */
export function QrSignIn({ onSignedIn, onSecondFactor }: { onSignedIn: () => void; onSecondFactor: () => void }): ReactNode {
  const { t } = useTranslation('auth');
  const [session, setSession] = useState<QrStart | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const start = useStartQrSignIn((data) => {
    setFailure(null);
    setSession(data);
  });

  useEffect(() => {
    if (!session) return undefined;
    let stopped = false;
    const deadline = Date.now() + session.expires_in * 1000;
    const intervalMs = Math.max(1, session.interval) * 1000;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = async (): Promise<void> => {
      if (stopped) return;
      if (Date.now() > deadline) {
        setSession(null);
        setFailure('expired');
        return;
      }
      try {
        const answer = await pollQrSignIn(session.poll_token);
        if (stopped) return;
        if (answer.status === 'approved' && answer.code) {
          const result = await exchangeCode(answer.code);
          if (result.kind === 'signed-in') onSignedIn();
          else onSecondFactor();
          return;
        }
        timer = setTimeout(() => void tick(), intervalMs);
      } catch (error) {
        if (!stopped) {
          setSession(null);
          setFailure(error);
        }
      }
    };
    timer = setTimeout(() => void tick(), intervalMs);
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    };
  }, [session, onSignedIn, onSecondFactor]);

  if (!session) {
    return (
      <Stack gap="xs">
        {failure ? (
          <Alert color="yellow">{failure === 'expired' ? t('qr.expired') : errorText(failure, t)}</Alert>
        ) : null}
        {start.isError ? <Alert color="red">{errorText(start.error, t)}</Alert> : null}
        <Button
          variant="default"
          leftSection={<IconQrcode size={18} />}
          loading={start.isPending}
          onClick={() => {
            start.mutate();
          }}
          data-testid="qr-start"
        >
          {t('qr.start')}
        </Button>
      </Stack>
    );
  }
  return (
    <Stack gap="xs" align="center" data-testid="qr-panel" data-approve-url={session.approve_url}>
      <Paper p="sm" bg="white" radius="md">
        <Center>
          <QRCodeSVG value={session.approve_url} size={184} marginSize={1} title={t('qr.alt')} />
        </Center>
      </Paper>
      <Text size="sm" ta="center" c="dimmed">
        {t('qr.scan')}
      </Text>
      <Text size="sm" ta="center">
        {t('qr.showNumber')}
      </Text>
      <Text fz={40} fw={700} lh={1} data-testid="qr-match-number">
        {session.match_number}
      </Text>
      <Button
        variant="subtle"
        size="compact-sm"
        onClick={() => {
          setSession(null);
        }}
      >
        {t('qr.cancel')}
      </Button>
    </Stack>
  );
}
