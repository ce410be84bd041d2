import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { dayChartFormats } from '../../../components/chart-formats';

/** Sign-ups per day: days and counts on the axes and in the tooltip in the reader's calendar
 * and digits. */
export default function SignupsChart({ data, label }: { data: { date: string; count: number }[]; label: string }): ReactNode {
  const { i18n } = useTranslation();
  return (
    <BarChart
      h={240}
      data={data}
      dataKey="date"
      series={[{ name: 'count', label, color: 'encore.5' }]}
      {...dayChartFormats(i18n.language)}
      yAxisProps={{ allowDecimals: false }}
      data-testid="signups-chart"
    />
  );
}
