import '@mantine/charts/styles.css';
import { AreaChart } from '@mantine/charts';
import type { ReactNode } from 'react';
import { formatTime } from '../../../i18n/dates';
import { localeOf } from '../../../i18n/languages';
import { figureFormats } from '../../../components/chart-formats';
import { chartTimeStyle, type ListenerPoint } from '../live-page-model';

/** A concert's listeners over time; its own chunk, loaded with the first live concert. Times,
 * counts on the axis and in the tooltip in the language's digits; times with seconds while
 * the series is young. */
export default function LivePageChart({ series, label, language }: { series: ListenerPoint[]; label: string; language: string }): ReactNode {
  const locale = localeOf(language);
  const timeStyle = chartTimeStyle(series);
  return (
    <AreaChart
      h={140}
      data={series.map((point) => ({ time: formatTime(point.at, locale, { timeStyle }), listeners: point.listeners }))}
      dataKey="time"
      series={[{ name: 'listeners', label, color: 'encore.5' }]}
      curveType="stepAfter"
      withDots={false}
      {...figureFormats(language)}
      // A show nobody listens to yet reads 0 to 1, not recharts' guess for an empty range.
      yAxisProps={{ allowDecimals: false, width: 32, domain: [0, (most: number) => Math.max(most, 1)] }}
      data-testid="live-concert-chart"
    />
  );
}
