import * as React from 'react';

import { cn } from '@/lib/utils';

/** Whether a box is narrower than what it holds (it scrolls sideways), followed as either is resized. */
function useScrollsSideways(ref: React.RefObject<HTMLElement | null>): boolean {
  const [scrolls, setScrolls] = React.useState(false);
  React.useEffect(() => {
    const box = ref.current;
    if (!box || typeof ResizeObserver === 'undefined') return;
    const measure = () => setScrolls(box.scrollWidth > box.clientWidth + 1);
    const observer = new ResizeObserver(measure);
    observer.observe(box);
    if (box.firstElementChild) observer.observe(box.firstElementChild);
    measure();
    return () => observer.disconnect();
  }, [ref]);
  return scrolls;
}

/**
 * `phoneCards`: below 640 px each row is a card whose cells wrap (styles.css), so a list never
 * scrolls sideways on a phone; a cell can name itself with `data-label`. A table wider than its box
 * (a report's figures on a phone) scrolls sideways, and its box then takes the keyboard's focus so
 * the arrow keys scroll it too (WCAG 2.1.1; axe's scrollable-region-focusable).
 */
function Table({ className, phoneCards = false, ...props }: React.ComponentProps<'table'> & { phoneCards?: boolean }) {
  const box = React.useRef<HTMLDivElement>(null);
  const scrolls = useScrollsSideways(box);
  return (
    <div
      ref={box}
      data-slot="table-container"
      tabIndex={scrolls ? 0 : undefined}
      className="focus-visible:ring-ring/50 relative w-full overflow-x-auto rounded-sm outline-none focus-visible:ring-[3px]"
    >
      <table data-slot="table" data-phone-cards={phoneCards ? '' : undefined} className={cn('w-full caption-bottom text-sm', className)} {...props} />
    </div>
  );
}

function TableHeader({ className, ...props }: React.ComponentProps<'thead'>) {
  return <thead data-slot="table-header" className={cn('[&_tr]:border-b', className)} {...props} />;
}

function TableBody({ className, ...props }: React.ComponentProps<'tbody'>) {
  return <tbody data-slot="table-body" className={cn('[&_tr:last-child]:border-0', className)} {...props} />;
}

function TableFooter({ className, ...props }: React.ComponentProps<'tfoot'>) {
  return <tfoot data-slot="table-footer" className={cn('border-t bg-muted/50 font-medium [&>tr]:last:border-b-0', className)} {...props} />;
}

function TableRow({ className, ...props }: React.ComponentProps<'tr'>) {
  return <tr data-slot="table-row" className={cn('border-b transition-colors hover:bg-muted/50 data-[state=selected]:bg-muted', className)} {...props} />;
}

function TableHead({ className, ...props }: React.ComponentProps<'th'>) {
  return (
    <th
      data-slot="table-head"
      className={cn(
        'h-10 px-2 text-start align-middle font-medium whitespace-nowrap text-foreground [&:has([role=checkbox])]:pe-0 [&>[role=checkbox]]:translate-y-[2px]',
        className,
      )}
      {...props}
    />
  );
}

function TableCell({ className, ...props }: React.ComponentProps<'td'>) {
  return (
    <td
      data-slot="table-cell"
      className={cn('p-2 text-start align-middle whitespace-nowrap [&:has([role=checkbox])]:pe-0 [&>[role=checkbox]]:translate-y-[2px]', className)}
      {...props}
    />
  );
}

export { Table, TableBody, TableCell, TableFooter, TableHead, TableHeader, TableRow };
