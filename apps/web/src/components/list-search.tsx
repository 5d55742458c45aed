import type { ComponentProps, Ref } from 'react';
import { LIMITS } from '@console/shared';
import type { ListPagination } from '@/components/list-pagination';
import { SearchInput } from '@/components/search-input';

/** The search box at the start of a list's toolbar, driven by `useSearchBox` (lib/use-search-box.ts). */
export function ListSearchInput({
  ref,
  text,
  onTextChange,
  placeholder,
  'data-testid': testId,
}: {
  ref: Ref<HTMLInputElement>;
  text: string;
  onTextChange(text: string): void;
  /** Also the box's accessible name. */
  placeholder: string;
  'data-testid': string;
}) {
  return (
    <SearchInput
      wrapperClassName="min-w-0 flex-1 basis-48 sm:max-w-sm"
      ref={ref}
      value={text}
      onChange={(e) => onTextChange(e.target.value)}
      placeholder={placeholder}
      aria-label={placeholder}
      data-testid={testId}
    />
  );
}

/** The pager of a list whose page and page size are in the URL's search (`ListPage`'s `pagination`): another page size starts at page 1. */
export function searchPagination(
  search: { page: number; pageSize: number },
  total: number,
  onSearch: (patch: { page: number; pageSize?: number }) => void,
): Omit<ComponentProps<typeof ListPagination>, 'className'> {
  return {
    page: search.page,
    pageSize: search.pageSize,
    total,
    pageSizeOptions: LIMITS.pageSizeOptions,
    onPageChange: (page) => onSearch({ page }),
    onPageSizeChange: (pageSize) => onSearch({ pageSize, page: 1 }),
  };
}
