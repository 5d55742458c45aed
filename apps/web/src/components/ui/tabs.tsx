import * as React from 'react';
import { Tabs as TabsPrimitive } from 'radix-ui';
import { cn } from '@/lib/utils';

function Tabs({ className, dir, ...props }: React.ComponentProps<typeof TabsPrimitive.Root>) {
  return (
    <TabsPrimitive.Root
      data-slot="tabs"
      dir={dir ?? (document.documentElement.dir === 'rtl' ? 'rtl' : 'ltr')}
      className={cn('flex flex-col gap-3', className)}
      {...props}
    />
  );
}

type Fade = 'left' | 'right' | 'both';

/**
 * Which sides of a row that scrolls sideways hide more of it (null: none, it all shows), followed
 * as it scrolls and is resized; in a right-to-left page the row starts at the right.
 */
function useHiddenSides(ref: React.RefObject<HTMLElement | null>): Fade | null {
  const [fade, setFade] = React.useState<Fade | null>(null);
  React.useEffect(() => {
    const row = ref.current;
    if (!row || typeof ResizeObserver === 'undefined') return;
    const measure = () => {
      const max = row.scrollWidth - row.clientWidth;
      if (max <= 1) return setFade(null);
      // Right to left, scrollLeft runs from 0 (the start, at the right) down to -max.
      const fromLeft = getComputedStyle(row).direction === 'rtl' ? max + row.scrollLeft : row.scrollLeft;
      const left = fromLeft > 1;
      const right = fromLeft < max - 1;
      setFade(left && right ? 'both' : left ? 'left' : right ? 'right' : null);
    };
    const observer = new ResizeObserver(measure);
    observer.observe(row);
    row.addEventListener('scroll', measure, { passive: true });
    measure();
    return () => {
      observer.disconnect();
      row.removeEventListener('scroll', measure);
    };
  }, [ref]);
  return fade;
}

/**
 * The row of tabs: as wide as its tabs, never wider than its parent; tabs that do not fit (a phone,
 * a long language) scroll sideways instead of pushing the page wider, and the side that hides more
 * tabs fades out, so the row says it scrolls (issue 39 §12; `data-fade`).
 */
function TabsList({ className, ref, ...props }: React.ComponentProps<typeof TabsPrimitive.List>) {
  const own = React.useRef<HTMLDivElement>(null);
  const fade = useHiddenSides(own);
  return (
    <TabsPrimitive.List
      ref={(node) => {
        own.current = node;
        if (typeof ref === 'function') ref(node);
        else if (ref) ref.current = node;
      }}
      data-slot="tabs-list"
      data-fade={fade ?? undefined}
      className={cn(
        'bg-muted text-muted-foreground inline-flex h-10 w-fit max-w-full min-w-0 items-center justify-start overflow-x-auto overscroll-x-contain rounded-lg p-1 [scrollbar-width:none] [&::-webkit-scrollbar]:hidden',
        'data-[fade=right]:[mask-image:linear-gradient(to_right,black_calc(100%-2.5rem),transparent)]',
        'data-[fade=left]:[mask-image:linear-gradient(to_left,black_calc(100%-2.5rem),transparent)]',
        'data-[fade=both]:[mask-image:linear-gradient(to_right,transparent,black_2.5rem,black_calc(100%-2.5rem),transparent)]',
        className,
      )}
      {...props}
    />
  );
}

function TabsTrigger({ className, ref, ...props }: React.ComponentProps<typeof TabsPrimitive.Trigger>) {
  const own = React.useRef<HTMLButtonElement>(null);
  // The chosen tab is brought into the row's view (a tab chosen by a link may start off screen).
  React.useEffect(() => {
    const trigger = own.current;
    if (!trigger) return;
    const show = () => {
      const list = trigger.parentElement;
      if (trigger.dataset.state !== 'active' || !list || list.scrollWidth <= list.clientWidth) return;
      // Only the row scrolls, never the page.
      const tab = trigger.getBoundingClientRect();
      const row = list.getBoundingClientRect();
      if (tab.left < row.left) list.scrollLeft -= row.left - tab.left;
      else if (tab.right > row.right) list.scrollLeft += tab.right - row.right;
    };
    show();
    const observer = new MutationObserver(show);
    observer.observe(trigger, { attributes: true, attributeFilter: ['data-state'] });
    return () => observer.disconnect();
  }, []);
  return (
    <TabsPrimitive.Trigger
      ref={(node) => {
        own.current = node;
        if (typeof ref === 'function') ref(node);
        else if (ref) ref.current = node;
      }}
      data-slot="tabs-trigger"
      className={cn(
        'focus-visible:ring-ring data-[state=active]:bg-background data-[state=active]:text-foreground inline-flex h-8 shrink-0 items-center justify-center gap-1.5 rounded-md px-3 text-sm font-medium whitespace-nowrap transition-colors outline-none focus-visible:ring-2 disabled:pointer-events-none disabled:opacity-50 data-[state=active]:shadow-sm [&_svg]:size-4',
        className,
      )}
      {...props}
    />
  );
}

function TabsContent({ className, ...props }: React.ComponentProps<typeof TabsPrimitive.Content>) {
  return <TabsPrimitive.Content data-slot="tabs-content" className={cn('outline-none', className)} {...props} />;
}

export { Tabs, TabsList, TabsTrigger, TabsContent };
