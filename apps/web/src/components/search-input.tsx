import type * as React from 'react';
import { Search } from 'lucide-react';

import { LIMITS } from '@console/shared';

import { Input } from '@/components/ui/input';
import { cn } from '@/lib/utils';

type SearchInputProps = Omit<React.ComponentProps<'input'>, 'type'> & {
  /** Classes of the box around the field (its width in a toolbar). */
  wrapperClassName?: string;
};

/** A search field with its magnifier, limited to the search length every list accepts. */
export function SearchInput({ wrapperClassName, className, maxLength = LIMITS.searchMaxLength, ...props }: SearchInputProps) {
  return (
    <div className={cn('relative', wrapperClassName)}>
      <Search className="text-muted-foreground pointer-events-none absolute inset-y-0 start-3 my-auto size-4" aria-hidden />
      <Input type="search" maxLength={maxLength} className={cn('ps-9', className)} {...props} />
    </div>
  );
}
