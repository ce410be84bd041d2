import { Alert, Button, Card, Center, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { IconGift } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { formatDate } from '../../../i18n/dates';
import { localeOf } from '../../../i18n/languages';
import { errorText } from '../../../lib/errors';
import { useAuthStatus } from '../../auth/session';
import { ListenNowIfOpen } from '../../events/components/concert-state';
import { useClaimGift } from '../mutations';
import { giftQueryOptions } from '../queries';

/** Where a claim link lands (`/claim?token=…`): what the gift is, then sign up or sign in
 * (coming back here), or claim it when signed in. */
export function ClaimPage(): ReactNode {
  const { t, i18n } = useTranslation('gifts');
  const locale = localeOf(i18n.language);
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const { hasToken } = useAuthStatus();
  const gift = useQuery({ ...giftQueryOptions(token), enabled: token !== '' });
  const claim = useClaimGift();
  const back = `/claim?token=${encodeURIComponent(token)}`;
  const withEmail = (path: string): string =>
    `${path}?redirect=${encodeURIComponent(back)}${gift.data ? `&email=${encodeURIComponent(gift.data.email)}` : ''}`;
  let content: ReactNode;
  if (token === '' || gift.isError) {
    content = (
      <Alert color="red" data-testid="claim-invalid">
        {gift.isError ? errorText(gift.error, t) : t('claim.noToken')}
      </Alert>
    );
  } else if (!gift.data) {
    content = <Loader />;
  } else if (claim.isSuccess) {
    content = (
      <Stack gap="sm" data-testid="claim-done">
        <Text>{t('claim.done', { title: gift.data.title })}</Text>
        <Group gap="xs">
          {/* A concert that plays now: Listen now, on its stage (not one page further on). */}
          <ListenNowIfOpen id={gift.data.eventId} />
          <Button component={Link} to={`/concerts/${gift.data.eventId}`} data-testid="claim-open-concert">
            {t('claim.openConcert')}
          </Button>
          <Button component={Link} to="/my-orders" variant="light">
            {t('claim.myTickets')}
          </Button>
        </Group>
      </Stack>
    );
  } else {
    content = (
      <Stack gap="sm">
        <Text dir="auto" data-testid="claim-what">
          {t('claim.from', { name: gift.data.from, title: gift.data.title, artist: gift.data.artistName })}
        </Text>
        <Text size="sm" c="dimmed">
          {formatDate(gift.data.startsAt, locale, { dateStyle: 'full', timeStyle: 'short' })}
        </Text>
        {claim.isError ? <Alert color="red" data-testid="claim-error">{errorText(claim.error, t)}</Alert> : null}
        {hasToken ? (
          <Button onClick={() => { claim.mutate(token); }} loading={claim.isPending} data-testid="claim-submit">
            {t('claim.submit')}
          </Button>
        ) : (
          <Stack gap="xs">
            <Text size="sm">{t('claim.signInFirst')}</Text>
            <Group gap="xs" grow>
              <Button component={Link} to={withEmail('/auth/signup')} data-testid="claim-sign-up">
                {t('claim.signUp')}
              </Button>
              <Button component={Link} to={withEmail('/auth/login')} variant="light" data-testid="claim-sign-in">
                {t('claim.signIn')}
              </Button>
            </Group>
          </Stack>
        )}
      </Stack>
    );
  }
  return (
    <Center mih="100dvh" p="md">
      <Card withBorder padding="lg" w="100%" maw={480} data-testid="claim-page">
        <Stack gap="md">
          <Group gap="xs">
            <IconGift size={24} />
            <Title order={2}>{t('claim.title')}</Title>
          </Group>
          {content}
        </Stack>
      </Card>
    </Center>
  );
}
