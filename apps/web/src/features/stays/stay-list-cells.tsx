import { Link } from '@tanstack/react-router';
import { ChevronDown } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuLabel, DropdownMenuTrigger } from '@/components/ui/dropdown-menu';
import { formatShortDateTime } from '@/lib/format';
import { formatMoney } from '@/lib/money';
import { cn } from '@/lib/utils';
import type { RouterOutputs } from '@/lib/trpc-types';
import { stayEnd, type StayDto } from './dialogs/stay-helpers';

/** A stay as the stay list shows it (with its visit's bill). */
export type Stay = RouterOutputs['stay']['list']['items'][number];

/**
 * The visit's bill as the stay's row shows it (the folio's balance, as on the room page): what is
 * owed, what is due back, settled, or nothing recorded.
 */
export function BillCell({ bill, currency, isNarrow = false }: { bill: Stay['bill']; currency: string; isNarrow?: boolean }) {
  const { t } = useTranslation();
  const testId = 'stay-bill';
  const money = (minor: number) => formatMoney(minor, currency, { narrow: isNarrow });
  if (bill.owed > 0) {
    return (
      <span className="text-destructive font-medium" data-testid={testId} data-state={bill.state} data-owed={bill.owed}>
        {t(bill.state === 'owing' ? 'stays.billOwing' : 'stays.billOwed', { amount: money(bill.owed) })}
      </span>
    );
  }
  if (bill.dueBack > 0) {
    return (
      <span data-testid={testId} data-state={bill.state} data-due-back={bill.dueBack}>
        {t('stays.billDueBack', { amount: money(bill.dueBack) })}
      </span>
    );
  }
  return (
    <span className="text-muted-foreground" data-testid={testId} data-state={bill.state}>
      {bill.state === 'none' ? '—' : t(`orders.billStates.${bill.state}`)}
    </span>
  );
}

/**
 * The main guest (a link to their details) and "+N" opening the other guests of the stay;
 * `isCompact` (a phone's card) shortens a long name to the room it has.
 */
export function GuestNames({ stay, isCompact = false }: { stay: Stay; isCompact?: boolean }) {
  const { t } = useTranslation();
  const [main, ...others] = stay.guests;
  if (!main) return <span className="text-muted-foreground">—</span>;
  return (
    <div className={cn('flex items-center gap-1.5', isCompact && 'min-w-0')}>
      <Link
        to="/room/thetouristsDetails"
        search={{ id: main.id }}
        className={cn('text-primary font-medium hover:underline', isCompact && 'min-w-0 truncate')}
        dir={isCompact ? 'auto' : undefined}
        data-testid={`guest-link-${main.id}`}
      >
        {main.name}
      </Link>
      {others.length > 0 && (
        <DropdownMenu>
          <DropdownMenuTrigger asChild>
            <Button variant="outline" size="sm" className="h-6 shrink-0 gap-0.5 px-1.5 text-xs" aria-label={t('stays.otherGuests', { number: others.length })}>
              {`+${others.length}`}
              <ChevronDown className="size-3" aria-hidden />
            </Button>
          </DropdownMenuTrigger>
          <DropdownMenuContent align="start">
            <DropdownMenuLabel>{t('stays.otherGuests', { number: others.length })}</DropdownMenuLabel>
            {others.map((guest) => (
              <DropdownMenuItem key={guest.id} asChild>
                <Link to="/room/thetouristsDetails" search={{ id: guest.id }}>
                  {guest.name}
                </Link>
              </DropdownMenuItem>
            ))}
          </DropdownMenuContent>
        </DropdownMenu>
      )}
    </div>
  );
}

/** How and when a stay that is over ended ("Cancelled: 24 Nov, 10:00"), never an "actual check-out" of a stay that had none. */
export function StayEndNote({ stay, timeZone, className }: { stay: Pick<StayDto, 'state' | 'checkedOutAt'>; timeZone: string; className?: string }) {
  const { t } = useTranslation();
  const end = stayEnd(stay);
  if (!end?.at) return null;
  return (
    <span className={className}>
      {t(end.labelKey)} <span className="tabular-nums">{formatShortDateTime(end.at, timeZone)}</span>
    </span>
  );
}
