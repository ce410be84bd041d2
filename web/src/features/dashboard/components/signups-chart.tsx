import '@mantine/charts/styles.css';
import { AreaChart } from '@mantine/charts';
import type { ReactNode } from 'react';

export default function SignupsChart({ data, label }: { data: { date: string; count: number }[]; label: string }): ReactNode {
  return (
    <AreaChart
      h={240}
      data={data.map((point) => ({ date: point.date.slice(5), count: point.count }))}
      dataKey="date"
      series={[{ name: 'count', label, color: 'encore.5' }]}
      curveType="monotone"
      withDots={false}
      data-testid="signups-chart"
    />
  );
}
