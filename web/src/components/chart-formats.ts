import type { ReactNode } from 'react';
import { DAY_IN_FULL, formatDay } from '../i18n/dates';
import { localeOf } from '../i18n/languages';
import { formatNumber } from '../i18n/numbers';

/** A chart's figures in the reader's digits: its value axis and its tooltip's values. */
export function figureFormats(language: string): { valueFormatter: (value: number) => string } {
  return { valueFormatter: (value) => formatNumber(value, language) };
}

/** A chart of calendar days (`2026-11-27`, as the server counts them): counts in the reader's
 * digits, the days on the axis ("27 Nov", Persian "۶ آذر") and in the tooltip ("Fri 27 Nov")
 * in the reader's calendar. */
export function dayChartFormats(language: string): {
  valueFormatter: (value: number) => string;
  xAxisProps: { tickFormatter: (day: string) => string };
  tooltipProps: { labelFormatter: (day: ReactNode) => ReactNode };
} {
  const locale = localeOf(language);
  return {
    ...figureFormats(language),
    xAxisProps: { tickFormatter: (day) => formatDay(day, locale) },
    tooltipProps: { labelFormatter: (day) => (typeof day === 'string' ? formatDay(day, locale, DAY_IN_FULL) : day) },
  };
}
