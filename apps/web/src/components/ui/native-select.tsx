import * as React from 'react';
import { ChevronDownIcon } from 'lucide-react';
import { cn } from '@/lib/utils';

/**
 * The browser's own `<select>`, styled as the console's select (shadcn's "native select"): for a
 * short list on a page that must load fast (the room board's filters), where Radix's Select would
 * add its code to the first download. Keyboard, screen readers and phones get the platform's
 * own control.
 */
function NativeSelect({ className, wrapperClassName, ...props }: React.ComponentProps<'select'> & { wrapperClassName?: string }) {
  return (
    <div className={cn('relative w-fit', wrapperClassName)} data-slot="native-select-wrapper">
      <select
        data-slot="native-select"
        className={cn(
          'border-input bg-background h-9 w-full min-w-0 appearance-none rounded-md border py-1 ps-3 pe-8 text-sm shadow-xs transition-[color,box-shadow] outline-none',
          'focus-visible:border-ring focus-visible:ring-ring/50 focus-visible:ring-[3px] disabled:cursor-not-allowed disabled:opacity-50',
          'aria-invalid:border-destructive aria-invalid:ring-destructive/20',
          className,
        )}
        {...props}
      />
      <ChevronDownIcon className="text-muted-foreground pointer-events-none absolute end-2.5 top-1/2 size-4 -translate-y-1/2 opacity-50" aria-hidden="true" />
    </div>
  );
}

function NativeSelectOption(props: React.ComponentProps<'option'>) {
  return <option data-slot="native-select-option" {...props} />;
}

export { NativeSelect, NativeSelectOption };
