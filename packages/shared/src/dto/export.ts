import { z } from 'zod';
import { EXPORT_LISTS, EXPORT_SCOPES } from '../export';

export const ZExportView = z.object({
  id: z.string(),
  list: z.enum(EXPORT_LISTS),
  scope: z.enum(EXPORT_SCOPES),
  fileName: z.string(),
  state: z.enum(['expired', 'done', 'failed', 'waiting', 'running']),
  done: z.number(),
  total: z.number(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
  downloadUrl: z.string().nullable(),
  error: z.string().nullable(),
});
export type TExportView = z.infer<typeof ZExportView>;

export const ZExportStartOutput = ZExportView;
export const ZExportStatusOutput = ZExportView;
export const ZExportListOutput = z.array(ZExportView);
