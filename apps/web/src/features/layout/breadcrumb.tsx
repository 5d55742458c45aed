import { Link, useRouterState } from '@tanstack/react-router';
import { ChevronRight } from 'lucide-react';
import { useTranslation } from 'react-i18next';

/** Home / section / page, from the `staticData` of the matched route. */
export function Breadcrumb() {
  const { t } = useTranslation();
  const staticData = useRouterState({ select: (s) => [...s.matches].reverse().find((m) => m.staticData.titleKey)?.staticData });
  const crumbs = [staticData?.sectionKey, staticData?.titleKey].filter((k): k is string => Boolean(k));
  return (
    <nav aria-label={t('layout.breadcrumb')} className="hidden min-w-0 sm:block">
      <ol className="text-muted-foreground flex items-center gap-1.5 text-sm">
        <li>
          <Link to="/" className="hover:text-foreground">
            {t('layout.home')}
          </Link>
        </li>
        {crumbs.map((key, i) => (
          <li key={key} className="flex min-w-0 items-center gap-1.5">
            <ChevronRight className="size-3.5 shrink-0 rtl:rotate-180" aria-hidden />
            <span
              className={i === crumbs.length - 1 ? 'text-foreground truncate font-medium' : 'truncate'}
              aria-current={i === crumbs.length - 1 ? 'page' : undefined}
            >
              {t(key)}
            </span>
          </li>
        ))}
      </ol>
    </nav>
  );
}
