import { createFileRoute } from '@tanstack/react-router';
import { AccessRulesPage } from '@/features/access-rules/access-rules-page';

/** Access rules (issue 20 §2): when and how reservations get their codes by themselves. */
export const Route = createFileRoute('/_auth/accessRules')({
  staticData: { titleKey: 'accessRules.title', sectionKey: 'menu.administration' },
  component: AccessRulesPage,
});
