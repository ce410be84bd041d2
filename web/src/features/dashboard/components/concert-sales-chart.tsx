import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { figureFormats } from '../../../components/chart-formats';

/** Tickets sold per concert (staff dashboard), loaded on demand with the chart library; counts
 * on the axis and in the tooltip in the reader's digits. */
export default function ConcertSalesChart({ data, label }: { data: { title: string; tickets: number }[]; label: string }): ReactNode {
  const { i18n } = useTranslation();
  return (
    <BarChart
      h={240}
      data={data}
      dataKey="title"
      series={[{ name: 'tickets', label, color: 'encore.5' }]}
      {...figureFormats(i18n.language)}
      yAxisProps={{ allowDecimals: false }}
      data-testid="concert-sales-chart"
    />
  );
}
