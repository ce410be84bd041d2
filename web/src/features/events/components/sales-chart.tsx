import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { dayChartFormats } from '../../../components/chart-formats';

/** Tickets per day for one concert (loaded on demand with the chart library), in the reader's
 * calendar and digits. */
export default function SalesChart({ data, label }: { data: { date: string; tickets: number }[]; label: string }): ReactNode {
  const { i18n } = useTranslation();
  return (
    <BarChart
      h={220}
      data={data.map((point) => ({ date: point.date, tickets: point.tickets }))}
      dataKey="date"
      series={[{ name: 'tickets', label, color: 'encore.5' }]}
      {...dayChartFormats(i18n.language)}
      yAxisProps={{ allowDecimals: false }}
      data-testid="sales-chart"
    />
  );
}
