import { Button, Center, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

export function NotFoundPage(): ReactNode {
  const { t } = useTranslation();
  return (
    <Center mih="100vh" p="md">
      <Stack align="center" gap="md" maw={560}>
        <Title order={1} fz={96} c="dimmed" aria-hidden>
          404
        </Title>
        <Title order={2} ta="center" data-testid="not-found-title">
          {t('errorsPage.notFoundTitle')}
        </Title>
        <Text c="dimmed" ta="center">
          {t('errorsPage.notFoundText')}
        </Text>
        <Button component={Link} to="/dashboard" size="md">
          {t('errorsPage.backToDashboard')}
        </Button>
      </Stack>
    </Center>
  );
}
