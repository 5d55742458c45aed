import { useMemo } from 'react';
import { getRouteApi } from '@tanstack/react-router';
import { withoutDefaults } from '@/lib/url-defaults';
import { readBalanceSearch, type BalanceSearch } from './api';
import { balanceSearchDefaults } from './balance-search';

const route = getRouteApi('/_auth/order/balance');

/** The Balance page's tab, filters and page as the URL holds them, and a change of some of them (the others kept). */
export function useBalanceSearch() {
  const raw = route.useSearch();
  const search = useMemo(() => readBalanceSearch(raw), [raw]);
  const navigate = route.useNavigate();
  const setSearch = (patch: Partial<BalanceSearch>) =>
    void navigate({ search: (prev) => withoutDefaults({ ...readBalanceSearch(prev), ...patch }, balanceSearchDefaults), replace: true });
  return [search, setSearch] as const;
}
