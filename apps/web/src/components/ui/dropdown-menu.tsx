import * as React from 'react';
import { DropdownMenu as DropdownMenuPrimitive } from 'radix-ui';

import { useDirection } from '@/components/ui/direction';
import { PopupRegion } from '@/components/ui/popup-region';
import { cn } from '@/lib/utils';

const itemBase =
  "relative flex cursor-default items-center gap-2 rounded-sm py-1.5 text-sm outline-hidden select-none focus:bg-accent focus:text-accent-foreground data-[disabled]:pointer-events-none data-[disabled]:opacity-50 [&_svg]:pointer-events-none [&_svg]:shrink-0 [&_svg:not([class*='size-'])]:size-4";

const popoverPanel =
  'z-50 min-w-[8rem] overflow-x-hidden overflow-y-auto rounded-md border bg-popover p-1 text-popover-foreground shadow-md transition-[opacity,scale] duration-150 starting:scale-95 starting:opacity-0 motion-reduce:transition-none';

/**
 * Not modal by default: a modal menu hides the rest of the page from assistive technology
 * (`aria-hidden` on it) while its links and buttons stay focusable (axe's aria-hidden-focus, and
 * the page then has no main landmark). It still closes on Escape, on a click outside and when the
 * focus leaves it, and gives the focus back to its button when closed by Escape or a choice.
 */
function DropdownMenu({ dir, modal = false, ...props }: React.ComponentProps<typeof DropdownMenuPrimitive.Root>) {
  const direction = useDirection(dir);
  return <DropdownMenuPrimitive.Root data-slot="dropdown-menu" dir={direction} modal={modal} {...props} />;
}

function DropdownMenuTrigger({ ...props }: React.ComponentProps<typeof DropdownMenuPrimitive.Trigger>) {
  return <DropdownMenuPrimitive.Trigger data-slot="dropdown-menu-trigger" {...props} />;
}

function DropdownMenuContent({ className, sideOffset = 4, ...props }: React.ComponentProps<typeof DropdownMenuPrimitive.Content>) {
  return (
    <DropdownMenuPrimitive.Portal>
      {/* In a landmark of its own: at the end of the body it would be outside every landmark. */}
      <PopupRegion>
        <DropdownMenuPrimitive.Content
          data-slot="dropdown-menu-content"
          sideOffset={sideOffset}
          className={cn(
            popoverPanel,
            'max-h-(--radix-dropdown-menu-content-available-height) origin-(--radix-dropdown-menu-content-transform-origin)',
            className,
          )}
          {...props}
        />
      </PopupRegion>
    </DropdownMenuPrimitive.Portal>
  );
}

function DropdownMenuItem({
  className,
  inset,
  variant = 'default',
  ...props
}: React.ComponentProps<typeof DropdownMenuPrimitive.Item> & {
  inset?: boolean;
  variant?: 'default' | 'destructive';
}) {
  return (
    <DropdownMenuPrimitive.Item
      data-slot="dropdown-menu-item"
      data-inset={inset}
      data-variant={variant}
      className={cn(
        itemBase,
        "px-2 data-[inset]:ps-8 data-[variant=destructive]:text-destructive data-[variant=destructive]:focus:bg-destructive/10 data-[variant=destructive]:focus:text-destructive data-[variant=destructive]:*:[svg]:!text-destructive [&_svg:not([class*='text-'])]:text-muted-foreground",
        className,
      )}
      {...props}
    />
  );
}

function DropdownMenuLabel({
  className,
  inset,
  ...props
}: React.ComponentProps<typeof DropdownMenuPrimitive.Label> & {
  inset?: boolean;
}) {
  return (
    <DropdownMenuPrimitive.Label
      data-slot="dropdown-menu-label"
      data-inset={inset}
      className={cn('px-2 py-1.5 text-sm font-medium data-[inset]:ps-8', className)}
      {...props}
    />
  );
}

function DropdownMenuSeparator({ className, ...props }: React.ComponentProps<typeof DropdownMenuPrimitive.Separator>) {
  return <DropdownMenuPrimitive.Separator data-slot="dropdown-menu-separator" className={cn('-mx-1 my-1 h-px bg-border', className)} {...props} />;
}

/**
 * For a menu mounted open by its stand-in's first press (components/menu-stand-in.tsx): the menu
 * learns that the keyboard is in use from the key presses it sees, and the one that opened it came
 * before it was mounted; so on that first opening the focus goes to the first item here (as radix
 * does when a key opens the menu), not to the menu itself. The content's `onFocus`.
 */
function useFirstItemFocus(openedWithKeyboard: boolean) {
  const isFirstOpening = React.useRef(true);
  return (event: React.FocusEvent<HTMLDivElement>) => {
    if (event.target !== event.currentTarget || !isFirstOpening.current) return;
    isFirstOpening.current = false;
    if (openedWithKeyboard) event.currentTarget.querySelector<HTMLElement>('[role="menuitem"]')?.focus({ preventScroll: true });
  };
}

export { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuLabel, DropdownMenuSeparator, DropdownMenuTrigger, useFirstItemFocus };
