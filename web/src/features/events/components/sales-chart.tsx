import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';
import type { ReactNode } from 'react';

/** Tickets per day for one concert (loaded on demand with the chart library). */
export default function SalesChart({ data, label }: { data: { date: string; tickets: number }[]; label: string }): ReactNode {
  return (
    <BarChart
      h={220}
      data={data.map((point) => ({ date: point.date.slice(5), tickets: point.tickets }))}
      dataKey="date"
      series={[{ name: 'tickets', label, color: 'encore.5' }]}
      yAxisProps={{ allowDecimals: false }}
      data-testid="sales-chart"
    />
  );
}
