import * as React from 'react';
import { Dialog as SheetPrimitive } from 'radix-ui';
import { XIcon } from 'lucide-react';

import { cn } from '@/lib/utils';

type SheetSide = 'start' | 'end' | 'top' | 'bottom';

// Entry slides in with a CSS transition from `@starting-style` (no animation plugin needed);
// closing is instant. Horizontal sheets use logical sides: `end` is the right edge in LTR and
// the left edge in RTL (direction comes from the `dir` attribute, e.g. on <html>).
const sideClasses: Record<SheetSide, string> = {
  end: 'inset-y-0 end-0 h-full w-3/4 border-s sm:max-w-sm ltr:starting:translate-x-full rtl:starting:-translate-x-full',
  start: 'inset-y-0 start-0 h-full w-3/4 border-e sm:max-w-sm ltr:starting:-translate-x-full rtl:starting:translate-x-full',
  top: 'inset-x-0 top-0 h-auto max-h-dvh border-b starting:-translate-y-full',
  bottom: 'inset-x-0 bottom-0 h-auto max-h-dvh border-t starting:translate-y-full',
};

function Sheet({ ...props }: React.ComponentProps<typeof SheetPrimitive.Root>) {
  return <SheetPrimitive.Root data-slot="sheet" {...props} />;
}

function SheetPortal({ ...props }: React.ComponentProps<typeof SheetPrimitive.Portal>) {
  return <SheetPrimitive.Portal data-slot="sheet-portal" {...props} />;
}

function SheetOverlay({ className, ...props }: React.ComponentProps<typeof SheetPrimitive.Overlay>) {
  return (
    <SheetPrimitive.Overlay
      data-slot="sheet-overlay"
      className={cn('fixed inset-0 z-50 bg-foreground/50 transition-opacity duration-300 starting:opacity-0 motion-reduce:transition-none', className)}
      {...props}
    />
  );
}

function SheetContent({
  className,
  children,
  side = 'end',
  closeLabel,
  ...props
}: React.ComponentProps<typeof SheetPrimitive.Content> & {
  side?: SheetSide;
  /** Screen-reader label of the X button; the button is rendered only when this is given. */
  closeLabel?: string;
}) {
  return (
    <SheetPortal>
      <SheetOverlay />
      <SheetPrimitive.Content
        data-slot="sheet-content"
        data-side={side}
        className={cn(
          'fixed z-50 flex flex-col gap-4 overflow-y-auto bg-background text-foreground shadow-lg outline-none transition-[translate] duration-300 ease-out motion-reduce:transition-none',
          sideClasses[side],
          className,
        )}
        {...props}
      >
        {children}
        {closeLabel ? (
          <SheetPrimitive.Close
            data-slot="sheet-close"
            className="absolute end-4 top-4 rounded-xs opacity-70 ring-offset-background transition-opacity hover:opacity-100 focus:ring-2 focus:ring-ring focus:ring-offset-2 focus:outline-hidden disabled:pointer-events-none data-[state=open]:bg-secondary"
          >
            <XIcon className="size-4" aria-hidden="true" />
            <span className="sr-only">{closeLabel}</span>
          </SheetPrimitive.Close>
        ) : null}
      </SheetPrimitive.Content>
    </SheetPortal>
  );
}

function SheetHeader({ className, ...props }: React.ComponentProps<'div'>) {
  return <div data-slot="sheet-header" className={cn('flex flex-col gap-1.5 p-4', className)} {...props} />;
}

function SheetTitle({ className, ...props }: React.ComponentProps<typeof SheetPrimitive.Title>) {
  return <SheetPrimitive.Title data-slot="sheet-title" className={cn('font-semibold text-foreground', className)} {...props} />;
}

function SheetDescription({ className, ...props }: React.ComponentProps<typeof SheetPrimitive.Description>) {
  return <SheetPrimitive.Description data-slot="sheet-description" className={cn('text-sm text-muted-foreground', className)} {...props} />;
}

export { Sheet, SheetContent, SheetDescription, SheetHeader, SheetOverlay, SheetPortal, SheetTitle };
export type { SheetSide };
