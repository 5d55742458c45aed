import * as React from 'react';
import { ChevronLeftIcon, ChevronRightIcon, MoreHorizontalIcon } from 'lucide-react';

import { Button } from '@/components/ui/button';
import { NativeSelect, NativeSelectOption } from '@/components/ui/native-select';
import { cn } from '@/lib/utils';

/** Every visible or spoken text of the pager, already translated by the caller. */
type PaginationLabels = {
  /** e.g. n => t('pagination.total', { count: n }) */
  total: (n: number) => string;
  /** Text of a page-size option, e.g. n => t('pagination.pageSize', { count: n }) ("20 / page"). */
  pageSize: (n: number) => string;
  previous: string;
  next: string;
  /** Accessible name of a page button, e.g. n => t('pagination.page', { page: n }). */
  page: (n: number) => string;
  /** Optional accessible name of the page-list landmark. */
  navigation?: string;
};

type PaginationProps = {
  /** Current page, 1-based (TanStack Table's `pageIndex + 1`). */
  page: number;
  pageSize: number;
  /** Total number of rows (not pages). */
  total: number;
  /** Called with a 1-based page number. */
  onPageChange: (page: number) => void;
  /** The page-size Select is shown only when this is given. */
  onPageSizeChange?: (pageSize: number) => void;
  pageSizeOptions?: readonly number[];
  labels: PaginationLabels;
  /** Formats the visible page numbers (defaults to plain digits). */
  formatNumber?: (n: number) => string;
  className?: string;
};

type PageItem = number | 'ellipsis-start' | 'ellipsis-end';

const DEFAULT_PAGE_SIZES = [10, 20, 50, 100] as const;

/** First, last, current and its neighbours; a gap of one page shows the page, wider gaps an ellipsis. */
function getPageItems(page: number, pageCount: number): PageItem[] {
  const wanted = [1, page - 1, page, page + 1, pageCount].filter((p) => p >= 1 && p <= pageCount);
  const pages = [...new Set(wanted)].sort((a, b) => a - b);
  const items: PageItem[] = [];
  let previous = 0;
  for (const p of pages) {
    if (previous > 0) {
      if (p - previous === 2) items.push(previous + 1);
      else if (p - previous > 2) items.push(previous === 1 ? 'ellipsis-start' : 'ellipsis-end');
    }
    items.push(p);
    previous = p;
  }
  return items;
}

function Pagination({
  page,
  pageSize,
  total,
  onPageChange,
  onPageSizeChange,
  pageSizeOptions = DEFAULT_PAGE_SIZES,
  labels,
  formatNumber = String,
  className,
}: PaginationProps) {
  const pageCount = Math.max(1, Math.ceil(Math.max(0, total) / Math.max(1, pageSize)));
  const current = Math.min(Math.max(1, page), pageCount);
  const items = getPageItems(current, pageCount);
  const sizes = pageSizeOptions.includes(pageSize) ? pageSizeOptions : [...pageSizeOptions, pageSize].sort((a, b) => a - b);

  const goTo = (target: number) => {
    if (target >= 1 && target <= pageCount && target !== current) onPageChange(target);
  };

  return (
    <div data-slot="pagination" className={cn('flex flex-wrap items-center justify-between gap-x-4 gap-y-2', className)}>
      <p data-slot="pagination-total" className="text-sm text-muted-foreground">
        {labels.total(total)}
      </p>

      <div className="flex flex-wrap items-center gap-2">
        {onPageSizeChange ? (
          <NativeSelect
            value={String(pageSize)}
            onChange={(event) => onPageSizeChange(Number(event.target.value))}
            className="h-8"
            aria-label={labels.pageSize(pageSize)}
            data-slot="pagination-page-size"
          >
            {sizes.map((size) => (
              <NativeSelectOption key={size} value={String(size)}>
                {labels.pageSize(size)}
              </NativeSelectOption>
            ))}
          </NativeSelect>
        ) : null}

        <nav aria-label={labels.navigation} data-slot="pagination-nav">
          <ul className="flex items-center gap-1">
            <li>
              <Button type="button" variant="ghost" size="icon-sm" aria-label={labels.previous} disabled={current <= 1} onClick={() => goTo(current - 1)}>
                <ChevronLeftIcon className="rtl:rotate-180" aria-hidden="true" />
              </Button>
            </li>
            {items.map((item) =>
              typeof item === 'number' ? (
                <li key={item}>
                  <Button
                    type="button"
                    variant={item === current ? 'outline' : 'ghost'}
                    size="sm"
                    className="min-w-8 px-2 tabular-nums"
                    aria-label={labels.page(item)}
                    aria-current={item === current ? 'page' : undefined}
                    onClick={() => goTo(item)}
                  >
                    {formatNumber(item)}
                  </Button>
                </li>
              ) : (
                <li key={item} aria-hidden="true">
                  <span className="flex size-8 items-center justify-center text-muted-foreground">
                    <MoreHorizontalIcon className="size-4" />
                  </span>
                </li>
              ),
            )}
            <li>
              <Button type="button" variant="ghost" size="icon-sm" aria-label={labels.next} disabled={current >= pageCount} onClick={() => goTo(current + 1)}>
                <ChevronRightIcon className="rtl:rotate-180" aria-hidden="true" />
              </Button>
            </li>
          </ul>
        </nav>
      </div>
    </div>
  );
}

export { Pagination, getPageItems };
export type { PaginationLabels, PaginationProps };
