import { LOCAL_DATE_REGEX } from '../../lib/shared-constants';
import { oneOf, optional, searchSchema, string, withDefault } from '../../lib/url-search';
import { REPORT_PERIODS } from './period';

/** The report's period and a day in it: a reload or a shared link shows the same report. No day: the hotel's today. */
export const reportsSearchSchema = searchSchema({
  period: withDefault(oneOf(REPORT_PERIODS), 'day'),
  date: optional(string({ pattern: LOCAL_DATE_REGEX })),
});

/** Values equal to these are left out of the URL. */
export const reportsSearchDefaults = { period: 'day' } as const;
