import type { Ref } from 'react';
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
