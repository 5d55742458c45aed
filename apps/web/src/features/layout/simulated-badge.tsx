import { useState } from 'react';
import type { LucideIcon } from 'lucide-react';
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip';

/**
 * A warning badge of the navbar saying that something the console drives is simulated, with a
 * tooltip that says what that means. The tooltip opens on hover, on keyboard focus and on a tap (a
 * phone has no hover), and closes with Escape or a tap elsewhere.
 */
export function SimulatedBadge({
  icon: Icon,
  label,
  hint,
  testId,
  hintTestId,
}: {
  icon: LucideIcon;
  label: string;
  hint: string;
  testId: string;
  hintTestId: string;
}) {
  const [open, setOpen] = useState(false);
  return (
    <Tooltip open={open} onOpenChange={setOpen}>
      <TooltipTrigger asChild>
        <button
          type="button"
          // The warning badge's looks (components/ui/badge), without its variants in the layout's download.
          className="bg-warning text-foreground focus-visible:ring-ring/50 inline-flex h-7 shrink-0 cursor-help items-center gap-1.5 rounded-md px-2 text-xs font-medium whitespace-nowrap outline-none focus-visible:ring-[3px]"
          onClick={(event) => {
            // A tap opens it (radix closes a tooltip on click).
            event.preventDefault();
            setOpen(true);
          }}
          data-testid={testId}
        >
          <Icon className="size-3.5" aria-hidden />
          <span className="max-sm:sr-only">{label}</span>
        </button>
      </TooltipTrigger>
      <TooltipContent className="max-w-72" data-testid={hintTestId}>
        {hint}
      </TooltipContent>
    </Tooltip>
  );
}
