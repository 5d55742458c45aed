import { createFileRoute } from '@tanstack/react-router';
import { AuditLogPage } from '@/features/audit-log/audit-log-page';

/**
 * The hotel's audit log (issue 9 §6): who changed what, when, through which face, with before and
 * after. Its filters live in the URL; the page reads them (features/audit-log/audit-log-search.ts),
 * so that their schema is not in every page's first download.
 */
export const Route = createFileRoute('/_auth/auditLog')({
  staticData: { titleKey: 'route.auditLog', sectionKey: 'menu.administration' },
  loaderDeps: ({ search }) => search,
  // The entries start loading with the navigation; the api module comes with the page's chunk (the route's code is in every page's first download).
  loader: ({ context, deps }) =>
    void import('@/features/audit-log/api').then(({ prefetchAuditLog }) => prefetchAuditLog(context.queryClient, deps)).catch(() => undefined),
  component: AuditLogPage,
});
