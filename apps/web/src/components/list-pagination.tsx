import { useTranslation } from 'react-i18next';

import { Pagination, type PaginationProps } from '@/components/ui/pagination';
import { formatNumber } from '@/lib/format';

/**
 * The pager of every list of the console: translated labels, numbers in the user's language.
 * `totalCapped`: the list counted only up to `total` (a very long list): shown as "10,000+".
 */
export function ListPagination({ totalCapped = false, ...props }: Omit<PaginationProps, 'labels' | 'formatNumber'> & { totalCapped?: boolean }) {
  const { t } = useTranslation();
  return (
    <Pagination
      {...props}
      formatNumber={formatNumber}
      labels={{
        total: (n) => t('pagination.total', { count: n, formatted: `${formatNumber(n)}${totalCapped ? '+' : ''}` }),
        pageSize: (n) => t('pagination.pageSize', { count: n }),
        previous: t('pagination.previous'),
        next: t('pagination.next'),
        page: (n) => t('pagination.page', { page: n }),
        navigation: t('pagination.navigation'),
      }}
    />
  );
}
