import { z } from 'zod';
import { EXPORT_FORMATS, EXPORT_LISTS, EXPORT_SCOPES } from '../export';

export const ZExportView = z.object({
  id: z.string(),
  list: z.enum(EXPORT_LISTS),
  scope: z.enum(EXPORT_SCOPES),
  format: z.enum(EXPORT_FORMATS),
  fileName: z.string(),
  state: z.enum(['expired', 'done', 'failed', 'waiting', 'running']),
  done: z.number(),
  total: z.number(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
  downloadUrl: z.string().nullable(),
  error: z.string().nullable(),
  /** What the finished file counted besides its rows, by name (the general ledger's `unmapped` lines: those of no code of the hotel's). */
  tallies: z.record(z.string(), z.number()),
});
export type TExportView = z.infer<typeof ZExportView>;

export const ZExportStartOutput = ZExportView;
export const ZExportStatusOutput = ZExportView;
export const ZExportListOutput = z.array(ZExportView);
