import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';
import type { ReactNode } from 'react';

/** Tickets sold per concert (staff dashboard), loaded on demand with the chart library. */
export default function ConcertSalesChart({ data, label }: { data: { title: string; tickets: number }[]; label: string }): ReactNode {
  return (
    <BarChart
      h={240}
      data={data}
      dataKey="title"
      series={[{ name: 'tickets', label, color: 'encore.5' }]}
      yAxisProps={{ allowDecimals: false }}
      data-testid="concert-sales-chart"
    />
  );
}
