import { createFileRoute } from '@tanstack/react-router';
import { accessRuleQueries } from '@/features/access-rules/api';
import { AccessRulesPage } from '@/features/access-rules/access-rules-page';

/** Access rules (issue 20 §2): when and how reservations get their codes by themselves. */
export const Route = createFileRoute('/_auth/accessRules')({
  staticData: { titleKey: 'accessRules.title', sectionKey: 'menu.administration' },
  loader: ({ context }) => void context.queryClient.ensureQueryData(accessRuleQueries.list()).catch(() => undefined),
  component: AccessRulesPage,
});
