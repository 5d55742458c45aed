import * as React from 'react';
import { Loader2 } from 'lucide-react';

import { cn } from '@/lib/utils';

/**
 * Decorative spinning loader (hidden from assistive tech): pair it with translated text or
 * an `aria-busy`/live region on the surrounding element. `size` is in pixels; without it the
 * spinner is 1rem (or whatever `className` sets).
 */
function Spinner({ className, size, ...props }: React.ComponentProps<typeof Loader2>) {
  return (
    <Loader2 data-slot="spinner" aria-hidden="true" size={size} className={cn('shrink-0 animate-spin', size === undefined && 'size-4', className)} {...props} />
  );
}

export { Spinner };
