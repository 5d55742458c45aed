import * as React from 'react';

import { cn } from '@/lib/utils';

function Skeleton({ className, ...props }: React.ComponentProps<'div'>) {
  return <div data-slot="skeleton" aria-hidden="true" className={cn('animate-pulse rounded-md bg-muted', className)} {...props} />;
}

/** The placeholder of a list while its first page loads: a few row-high bars, announced as loading. */
function SkeletonRows({ rows, label }: { rows: number; label: string }) {
  return (
    <div className="space-y-2 p-4" role="status" aria-busy="true" aria-label={label}>
      {Array.from({ length: rows }, (_, i) => (
        <Skeleton key={i} className="h-10 w-full" />
      ))}
    </div>
  );
}

export { Skeleton, SkeletonRows };
