import { useState } from 'react';
import { Usb } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip';
import { useIsDeskReaderSimulated } from '@/lib/desk-reader-env';

/**
 * "Simulated reader", while the desk reader is the reader simulator (the server runs it, or the
 * reader said so when opened): no card the console reads or writes is real. Next to the
 * simulated-locks badge, with the same looks and the same tooltip behaviour (hover, focus, tap).
 */
export function SimulatedReaderBadge() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const simulated = useIsDeskReaderSimulated();
  if (!simulated) return null;
  return (
    <Tooltip open={open} onOpenChange={setOpen}>
      <TooltipTrigger asChild>
        <button
          type="button"
          className="bg-warning text-foreground focus-visible:ring-ring/50 inline-flex h-7 shrink-0 cursor-help items-center gap-1.5 rounded-md px-2 text-xs font-medium whitespace-nowrap outline-none focus-visible:ring-[3px]"
          onClick={(event) => {
            event.preventDefault();
            setOpen(true);
          }}
          data-testid="simulated-reader-badge"
        >
          <Usb className="size-3.5" aria-hidden />
          <span className="max-sm:sr-only">{t('readers.simulated')}</span>
        </button>
      </TooltipTrigger>
      <TooltipContent className="max-w-72" data-testid="simulated-reader-hint">
        {t('readers.simulatedHint')}
      </TooltipContent>
    </Tooltip>
  );
}
