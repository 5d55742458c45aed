import type { FastifyInstance } from 'fastify';
import type { TReportFileFormat } from '@console/shared';
import type { Deps } from '../context';
import { invoicePdf } from '../modules/invoices/invoice-pdf';
import { reportFile } from '../modules/reports/report-file';
import { sessionFileRoute } from './session-file';

/**
 * The console's downloads made on request (http/session-file.ts):
 * - `GET /api/reports/export?from=&to=&format=xlsx|csv&lang=`: a range of days' report
 *   (modules/reports/report-file.ts), for a manager of every room, headed in `lang`;
 * - `GET /api/invoices/:id/pdf`: an invoice or credit note as a PDF in its own language
 *   (modules/invoices/invoice-pdf.ts), for whoever may read it (`invoice.get`'s rules).
 */
export function registerReports(app: FastifyInstance, deps: Deps) {
  sessionFileRoute(app, deps, '/api/reports/export', 'report export', (ctx, req) => {
    const query = req.query as Record<string, unknown>;
    return reportFile(ctx, { from: query.from as string, to: query.to as string, format: query.format as TReportFileFormat });
  });
  sessionFileRoute(app, deps, '/api/invoices/:id/pdf', 'invoice PDF', (ctx, req) => invoicePdf(ctx, { id: Number((req.params as { id: string }).id) }));
}
