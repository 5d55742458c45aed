import * as React from 'react';
import type { LucideIcon } from 'lucide-react';

import { cn } from '@/lib/utils';

type EmptyStateProps = Omit<React.ComponentProps<'div'>, 'title'> & {
  icon?: LucideIcon;
  title: React.ReactNode;
  description?: React.ReactNode;
  /** Usually a `Button` (e.g. "create the first one"). */
  action?: React.ReactNode;
};

function EmptyState({ icon: Icon, title, description, action, className, ...props }: EmptyStateProps) {
  return (
    <div
      data-slot="empty-state"
      className={cn('flex flex-col items-center justify-center gap-3 px-6 py-12 text-center text-muted-foreground', className)}
      {...props}
    >
      {Icon ? (
        <div className="flex size-12 items-center justify-center rounded-full bg-muted">
          <Icon className="size-6" aria-hidden="true" />
        </div>
      ) : null}
      <div className="flex max-w-sm flex-col gap-1">
        <p className="text-base font-medium text-foreground">{title}</p>
        {description ? <p className="text-sm">{description}</p> : null}
      </div>
      {action ? <div className="mt-2">{action}</div> : null}
    </div>
  );
}

export { EmptyState };
export type { EmptyStateProps };
