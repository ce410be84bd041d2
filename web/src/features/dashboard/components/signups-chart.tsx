import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';
import type { ReactNode } from 'react';

export default function SignupsChart({ data, label }: { data: { date: string; count: number }[]; label: string }): ReactNode {
  return (
    <BarChart
      h={240}
      data={data.map((point) => ({ date: point.date.slice(5), count: point.count }))}
      dataKey="date"
      series={[{ name: 'count', label, color: 'encore.5' }]}
      yAxisProps={{ allowDecimals: false }}
      data-testid="signups-chart"
    />
  );
}
