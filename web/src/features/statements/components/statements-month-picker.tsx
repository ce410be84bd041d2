import { ActionIcon, Group, Text } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { languageInfo, localeOf } from '../../../i18n/languages';
import { periodName, shiftPeriod } from '../model';
import type { Period } from '../model';

/** The month of the statements, a month back or forward (never past `latest`). */
export function StatementsMonthPicker({ period, latest, onChange }: { period: Period; latest: Period; onChange: (period: Period) => void }): ReactNode {
  const { t, i18n } = useTranslation('statements');
  const rtl = languageInfo(i18n.language).dir === 'rtl';
  // "Previous" points back the way the reader reads: left in English, right in Persian.
  const Back = rtl ? IconChevronRight : IconChevronLeft;
  const Forward = rtl ? IconChevronLeft : IconChevronRight;
  return (
    <Group gap="xs" wrap="nowrap" role="group" aria-label={t('month.label')} data-testid="statements-month-picker">
      <ActionIcon variant="default" size="lg" aria-label={t('month.previous')} onClick={() => { onChange(shiftPeriod(period, -1)); }} data-testid="statements-month-previous">
        <Back size={18} />
      </ActionIcon>
      <Text fw={600} miw={150} ta="center" aria-live="polite" data-testid="statements-month" data-period={period}>
        {periodName(period, localeOf(i18n.language))}
      </Text>
      <ActionIcon
        variant="default"
        size="lg"
        aria-label={t('month.next')}
        disabled={period >= latest}
        onClick={() => { onChange(shiftPeriod(period, 1)); }}
        data-testid="statements-month-next"
      >
        <Forward size={18} />
      </ActionIcon>
    </Group>
  );
}
