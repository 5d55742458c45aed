import { useId, useState, type ComponentProps, type ReactNode } from 'react';
import { SlidersHorizontal } from 'lucide-react';
import { LIMITS } from '@console/shared';
import { useTranslation } from 'react-i18next';
import { ListPagination } from '@/components/list-pagination';
import { LoadError, failedQuery } from '@/components/load-error';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { SkeletonRows } from '@/components/ui/skeleton';
import { Spinner } from '@/components/ui/spinner';
import { formatNumber } from '@/lib/format';
import { cn } from '@/lib/utils';

/** The parts of a TanStack query a list page reads. */
export interface ListQuery {
  data: unknown;
  error: unknown;
  isError: boolean;
  isFetching: boolean;
  isLoading: boolean;
  refetch(): unknown;
}

/**
 * The one heading of a page (its only h1), a spinner while it refreshes, and its buttons. A list
 * that is one section of a page (`as="h2"`) has a smaller heading of its own.
 */
export function PageHeader({
  title,
  isBusy = false,
  actions,
  before,
  as: Heading = 'h1',
  headingId,
}: {
  title: ReactNode;
  isBusy?: boolean;
  actions?: ReactNode;
  before?: ReactNode;
  as?: 'h1' | 'h2';
  headingId?: string;
}) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-2">
      <div className="flex min-w-0 items-center gap-2">
        {before}
        <Heading id={headingId} className={Heading === 'h1' ? 'truncate text-xl font-semibold' : 'truncate text-lg font-semibold'}>
          {title}
        </Heading>
        {isBusy && <Spinner className="text-muted-foreground" />}
      </div>
      {actions && <div className="flex flex-wrap items-center gap-2">{actions}</div>}
    </div>
  );
}

/**
 * "Clear filters": at the end of a list's toolbar (`ghost`, shown while a filter is set) and as the
 * action of its empty state when filters hid every row (`outline`).
 */
export function ClearFiltersButton({
  onClick,
  variant = 'ghost',
  'data-testid': testId,
}: {
  onClick(): void;
  variant?: 'ghost' | 'outline';
  'data-testid'?: string;
}) {
  const { t } = useTranslation();
  return (
    <Button variant={variant} onClick={onClick} data-testid={testId}>
      {t('common.clearFilters')}
    </Button>
  );
}

type PaginationProps = Omit<ComponentProps<typeof ListPagination>, 'className'>;

/**
 * A list's pager over the page and page size kept in the URL: another page keeps the size, another
 * size starts again at page 1.
 */
export function urlPagination(
  search: { page: number; pageSize: number },
  setSearch: (patch: { page: number; pageSize?: number }) => void,
  total: number,
  options: { totalCapped?: boolean; pageSizeOptions?: readonly number[] } = {},
): PaginationProps {
  return {
    page: search.page,
    pageSize: search.pageSize,
    total,
    totalCapped: options.totalCapped ?? false,
    pageSizeOptions: options.pageSizeOptions ?? LIMITS.pageSizeOptions,
    onPageChange: (page) => setSearch({ page }),
    onPageSizeChange: (pageSize) => setSearch({ pageSize, page: 1 }),
  };
}

interface ListPageProps {
  /** The page's name, its h1; none for a list that is a tab of a page (the tab names it). */
  title?: ReactNode;
  /** `h2`: the list is a section of a page whose h1 is above it. */
  titleAs?: 'h1' | 'h2';
  /** Buttons at the end of the heading (add, ...). */
  actions?: ReactNode;
  /** Between the heading and the list (status chips). */
  beforeList?: ReactNode;
  /** The start of the toolbar, always shown (the search box). */
  search?: ReactNode;
  /** Filters: in the toolbar on a wide screen, folded behind a "Filters" button on a phone. */
  filters?: ReactNode;
  /** How many of the folded filters are set (shown on the "Filters" button). */
  activeFilters?: number;
  /** The end of the toolbar, always shown (refresh, view switch, totals). */
  toolbarEnd?: ReactNode;
  /** A full-width line under the toolbar (a filter's error). */
  toolbarBelow?: ReactNode;
  /**
   * A bar under the toolbar that stays in sight while the list scrolls under it (the actions on the
   * rows picked): sticky at the top of the page's scrolling area, on a desktop and a phone.
   */
  stickyBar?: ReactNode;
  /** The list's query: its failure is shown here, never mistaken for an empty list. */
  query: ListQuery;
  /** What the list holds, for "Could not load {{what}}". */
  what: string;
  /** The filters cannot be sent as they are (their error is in `toolbarBelow`): no list under them. */
  isBlocked?: boolean;
  isEmpty: boolean;
  empty: ReactNode;
  skeleton?: ReactNode;
  /** The list itself (a table, tiles). */
  children: ReactNode;
  pagination?: PaginationProps;
  'data-testid'?: string;
}

/**
 * The frame every list of the console shares: the heading, a card with a toolbar (search, filters
 * that fold away on a phone, refresh), the list, and the pager. A list that could not be loaded
 * shows what failed and a retry button until a retry succeeds (a slim banner over the rows when a
 * refresh failed); only a list that was loaded says it is empty.
 */
export function ListPage({
  title,
  titleAs = 'h1',
  actions,
  beforeList,
  search,
  filters,
  activeFilters = 0,
  toolbarEnd,
  toolbarBelow,
  stickyBar,
  query,
  what,
  isBlocked = false,
  isEmpty,
  empty,
  skeleton,
  children,
  pagination,
  'data-testid': testId,
}: ListPageProps) {
  const { t } = useTranslation();
  const [isFiltersOpen, setIsFiltersOpen] = useState(false);
  const filtersId = useId();
  const hasData = query.data !== undefined;
  const hasToolbar = Boolean(search || filters || toolbarEnd);
  const headingId = useId();
  // A section of a page is a region named by its heading; a whole page is not wrapped again.
  const Frame = titleAs === 'h2' ? 'section' : 'div';

  let body: ReactNode;
  if (isBlocked) body = null;
  else if (query.isError && !hasData) body = <LoadError query={failedQuery(query)} what={what} />;
  else if (query.isLoading) body = skeleton ?? <SkeletonRows rows={6} label={t('common.loading')} />;
  else if (isEmpty) body = empty;
  else body = children;

  return (
    <Frame className="space-y-4" aria-labelledby={titleAs === 'h2' ? headingId : undefined} data-testid={testId}>
      {title !== undefined && (
        <PageHeader
          title={title}
          as={titleAs}
          headingId={titleAs === 'h2' ? headingId : undefined}
          isBusy={query.isFetching && !query.isLoading}
          actions={actions}
        />
      )}
      {beforeList}
      <Card className="gap-0 p-0">
        {hasToolbar && (
          <div className="flex flex-wrap items-center gap-2 border-b p-3" data-slot="list-toolbar">
            {search}
            {filters && (
              <Button
                type="button"
                variant="outline"
                className="sm:hidden"
                aria-expanded={isFiltersOpen}
                aria-controls={filtersId}
                onClick={() => setIsFiltersOpen((open) => !open)}
                data-testid="filters-toggle"
              >
                <SlidersHorizontal aria-hidden />
                {t('common.filters')}
                {activeFilters > 0 && (
                  <span className="bg-primary text-primary-foreground min-w-5 rounded-full px-1.5 text-xs tabular-nums">{formatNumber(activeFilters)}</span>
                )}
              </Button>
            )}
            {toolbarEnd && <div className="ms-auto flex flex-wrap items-center gap-2 sm:order-last">{toolbarEnd}</div>}
            {filters && (
              <div
                id={filtersId}
                className={cn('basis-full flex-wrap items-end gap-2 sm:flex sm:basis-auto', isFiltersOpen ? 'flex' : 'hidden')}
                data-testid="list-filters"
                data-open={isFiltersOpen}
              >
                {filters}
              </div>
            )}
            {toolbarBelow && <div className="order-last basis-full">{toolbarBelow}</div>}
          </div>
        )}
        {stickyBar && (
          <div className="bg-card sticky top-0 z-20 border-b p-3 shadow-sm" data-slot="list-sticky-bar">
            {stickyBar}
          </div>
        )}
        {!isBlocked && query.isError && hasData && <LoadError query={failedQuery(query)} what={what} className="m-3" />}
        {body}
        {!isBlocked && hasData && pagination && pagination.total > 0 && (
          <div className="border-t p-3">
            <ListPagination {...pagination} />
          </div>
        )}
      </Card>
    </Frame>
  );
}
