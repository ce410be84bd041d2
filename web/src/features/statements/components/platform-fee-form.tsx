import { Alert, Button, Card, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { localeOf } from '../../../i18n/languages';
import { errorText } from '../../../lib/errors';
import type { PlatformFee } from '../api';
import { formatPercent, typedPercent } from '../model';
import { useSetPlatformFee } from '../mutations';

interface PlatformFeeFormProps {
  projectId: string;
  projectName: string;
  /** The percentage the month's statements took (`"7.5"`), when there is one. */
  inForce: string | null;
}

/** Staff: a project's platform fee, its own percentage set or cleared (the operator's then).
 * The server says what is wrong with a percentage (422), in the reader's language. */
export function PlatformFeeForm({ projectId, projectName, inForce }: PlatformFeeFormProps): ReactNode {
  const { t, i18n } = useTranslation('statements');
  const locale = localeOf(i18n.language);
  const [typed, setTyped] = useState('');
  // The server answers with the fee now; it has no other way of saying which one is the project's own.
  const [saved, setSaved] = useState<PlatformFee | null>(null);
  const save = useSetPlatformFee(projectId, (fee) => {
    setSaved(fee);
    notifications.show({ color: 'green', message: t('fee.saved') });
  });
  const current = saved
    ? saved.own !== null && saved.own !== undefined
      ? t('fee.own', { percent: formatPercent(saved.own, locale) })
      : t('fee.operators', { percent: formatPercent(saved.applies, locale) })
    : inForce !== null
      ? t('fee.inForce', { percent: formatPercent(inForce, locale) })
      : t('fee.notShown');
  return (
    <Card withBorder padding="lg" data-testid="platform-fee">
      <Stack gap="sm">
        <div>
          <Title order={3} size="h4">
            {t('fee.title', { project: projectName })}
          </Title>
          <Text size="sm" c="dimmed" data-testid="platform-fee-current">
            {current}
          </Text>
        </div>
        {save.isError ? (
          <Alert color="red" data-testid="platform-fee-error">
            {errorText(save.error, t)}
          </Alert>
        ) : null}
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            save.mutate(typedPercent(typed));
          }}
        >
          <Group align="flex-end" gap="sm">
            <TextInput
              label={t('fee.label')}
              description={t('fee.hint')}
              inputMode="decimal"
              value={typed}
              onChange={(event) => {
                setTyped(event.currentTarget.value);
              }}
              w={{ base: '100%', sm: 280 }}
              data-testid="platform-fee-input"
            />
            <Group gap="sm">
              <Button type="submit" loading={save.isPending && save.variables !== null} data-testid="platform-fee-save">
                {t('fee.save')}
              </Button>
              <Button
                variant="default"
                loading={save.isPending && save.variables === null}
                onClick={() => {
                  setTyped('');
                  save.mutate(null);
                }}
                data-testid="platform-fee-clear"
              >
                {t('fee.clear')}
              </Button>
            </Group>
          </Group>
        </form>
      </Stack>
    </Card>
  );
}
