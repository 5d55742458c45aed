import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import uPlot from 'uplot';
import { fromMinor } from '@console/shared';
import { currentLanguage } from '@/lib/language';
import type { DayReport } from './api';
import 'uplot/dist/uPlot.min.css';

/**
 * Occupancy and revenue over the days of a week or a month (issue 26 §2), drawn by uPlot (a
 * maintained chart library, loaded with this chart only: its chunk comes when a week or a month is
 * shown). Occupancy is a line on the start axis (percent), revenue bars on the end axis (in the
 * currency's unit). A picture: the table of days beside it says the same in text.
 */
const DAY = 86_400;
const DAY_STEPS = [DAY, 2 * DAY, 7 * DAY, 14 * DAY];

export default function ReportChart({ days, currency }: { days: DayReport[]; currency: string }) {
  const { t } = useTranslation();
  const box = useRef<HTMLDivElement>(null);
  const language = currentLanguage().header;

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const style = getComputedStyle(document.documentElement);
    const color = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
    const primary = color('--primary', '#3b5bdb');
    const muted = color('--muted-foreground', '#6b7280');
    const grid = color('--border', '#e5e7eb');
    // Each day at its UTC midnight, drawn in UTC: the axis shows the hotel's dates as they are.
    const x = days.map((d) => Date.parse(`${d.date}T00:00:00Z`) / 1000);
    const occupancy = days.map((d) => d.occupancy);
    const revenue = days.map((d) => fromMinor(d.revenue.total, currency));
    const dayFormat = new Intl.DateTimeFormat(language, { month: 'short', day: 'numeric', timeZone: 'UTC' });
    const amountFormat = new Intl.NumberFormat(language, { notation: 'compact', maximumFractionDigits: 1 });
    const percentFormat = new Intl.NumberFormat(language, { maximumFractionDigits: 1 });
    const axis = { stroke: muted, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
    const options: uPlot.Options = {
      width: Math.max(280, element.clientWidth),
      height: 260,
      tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
      scales: { x: { time: true }, occupancy: { range: [0, 100] }, revenue: { range: (_u, _min, max) => [0, Math.max(1, max) * 1.1] } },
      axes: [
        // Whole days only (a day, two, a week, two weeks apart, as the width allows): each date once,
        // never a label at every eight hours that repeats the day three times (issue 36 §8).
        { ...axis, incrs: DAY_STEPS, values: (_u, splits) => splits.map((s) => dayFormat.format(new Date(s * 1000))) },
        { ...axis, scale: 'occupancy', values: (_u, splits) => splits.map((s) => `${percentFormat.format(s)}%`) },
        { ...axis, scale: 'revenue', side: 1, grid: { show: false }, values: (_u, splits) => splits.map((s) => amountFormat.format(s)) },
      ],
      series: [
        { label: t('reports.columns.date'), value: (_u, v) => (v == null ? '—' : dayFormat.format(new Date(v * 1000))) },
        {
          label: t('reports.columns.revenue', { currency }),
          scale: 'revenue',
          stroke: muted,
          fill: `color-mix(in oklch, ${muted} 35%, transparent)`,
          paths: uPlot.paths.bars!({ size: [0.6, 48] }),
          points: { show: false },
          value: (_u, v) => (v == null ? '—' : amountFormat.format(v)),
        },
        {
          label: t('reports.columns.occupancy'),
          scale: 'occupancy',
          stroke: primary,
          width: 2,
          points: { show: true, size: 5, fill: primary },
          value: (_u, v) => (v == null ? '—' : `${percentFormat.format(v)}%`),
        },
      ],
      cursor: { drag: { x: false, y: false } },
    };
    const chart = new uPlot(options, [x, revenue, occupancy], element);
    const resize = new ResizeObserver(() => chart.setSize({ width: Math.max(280, element.clientWidth), height: 260 }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [days, currency, language, t]);

  // The canvas reads left to right in every language (time runs that way on its axis).
  return <div ref={box} dir="ltr" className="w-full overflow-hidden" data-testid="report-chart" data-days={days.length} />;
}
