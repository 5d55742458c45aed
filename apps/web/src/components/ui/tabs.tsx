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

/**
 * The row of tabs: as wide as its tabs, never wider than its parent; tabs that do not fit (a phone,
 * a long language) scroll sideways instead of pushing the page wider.
 */
function TabsList({ className, ...props }: React.ComponentProps<typeof TabsPrimitive.List>) {
  return (
    <TabsPrimitive.List
      data-slot="tabs-list"
      className={cn(
        'bg-muted text-muted-foreground inline-flex h-10 w-fit max-w-full min-w-0 items-center justify-start overflow-x-auto overscroll-x-contain rounded-lg p-1 [scrollbar-width:none] [&::-webkit-scrollbar]:hidden',
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
