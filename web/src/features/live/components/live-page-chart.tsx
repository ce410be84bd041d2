import '@mantine/charts/styles.css';
import { AreaChart } from '@mantine/charts';
import type { ReactNode } from 'react';
import type { ListenerPoint } from '../live-page-model';

/** A concert's listeners over time; its own chunk, loaded with the first live concert. */
export default function LivePageChart({ series, label, locale }: { series: ListenerPoint[]; label: string; locale: string }): ReactNode {
  const time = new Intl.DateTimeFormat(locale, { timeStyle: 'short' });
  return (
    <AreaChart
      h={140}
      data={series.map((point) => ({ time: time.format(point.at), listeners: point.listeners }))}
      dataKey="time"
      series={[{ name: 'listeners', label, color: 'encore.5' }]}
      curveType="stepAfter"
      withDots={false}
      yAxisProps={{ allowDecimals: false, width: 32 }}
      data-testid="live-concert-chart"
    />
  );
}
