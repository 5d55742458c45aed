import type { ReactNode } from 'react';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { StayStateBadge } from '@/components/status-badges';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatShortDateTime } from '@/lib/format';
import { formatMoney } from '@/lib/money';
import { BillCell, GuestNames, StayEndNote, type Stay } from './stay-list-cells';

/** The stays as a table's rows: the room, the guests, the state, the times, the prices and the bill. */
export function StayListTable({ items, currency, timeZone }: { items: Stay[]; currency: string; timeZone: string }) {
  const { t } = useTranslation();
  return (
    <Table data-testid="stay-list-table">
      <TableHeader>
        <TableRow>
          <TableHead>{t('stays.room')}</TableHead>
          <TableHead>{t('stays.guests')}</TableHead>
          <TableHead>{t('stays.state')}</TableHead>
          <TableHead>{t('stays.checkIn')}</TableHead>
          <TableHead>{t('stays.expectedCheckOut')}</TableHead>
          <TableHead className="text-end">{t('stays.price')}</TableHead>
          <TableHead className="text-end">{t('stays.deposit')}</TableHead>
          <TableHead className="text-end">{t('stays.bill')}</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {items.map((stay) => (
          <TableRow key={stay.id} data-testid={`stay-row-${stay.id}`} data-state={stay.state}>
            <TableCell className="font-medium">
              <Link to="/room/$roomId" params={{ roomId: stay.roomId }} className="hover:underline">
                {stay.roomName}
              </Link>
            </TableCell>
            <TableCell>
              <GuestNames stay={stay} />
            </TableCell>
            <TableCell>
              <StayStateBadge state={stay.state} />
            </TableCell>
            <TableCell className="whitespace-nowrap">{formatShortDateTime(stay.checkInAt, timeZone)}</TableCell>
            <TableCell className="whitespace-nowrap">
              <div>{formatShortDateTime(stay.expectedCheckOutAt, timeZone)}</div>
              <StayEndNote stay={stay} timeZone={timeZone} className="text-muted-foreground block text-xs" />
            </TableCell>
            <TableCell className="text-end whitespace-nowrap tabular-nums">{formatMoney(stay.priceAmount, currency)}</TableCell>
            <TableCell className="text-end whitespace-nowrap tabular-nums">{formatMoney(stay.bill.depositHeld, currency)}</TableCell>
            <TableCell className="text-end whitespace-nowrap tabular-nums">
              <BillCell bill={stay.bill} currency={currency} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/**
 * The stays as cards, on a phone: the room, the main guest and the bill on the first line (the
 * guest's name is shortened, never the amount), then the state, the times and the prices.
 */
export function StayListCards({ items, currency, timeZone }: { items: Stay[]; currency: string; timeZone: string }) {
  const { t } = useTranslation();
  return (
    <ul className="divide-y" data-testid="stay-list-cards">
      {items.map((stay) => (
        <li key={stay.id} className="grid gap-1.5 px-3 py-2.5 text-sm" data-testid={`stay-row-${stay.id}`} data-state={stay.state}>
          <div className="flex min-w-0 items-center gap-2">
            <Link to="/room/$roomId" params={{ roomId: stay.roomId }} className="max-w-[40%] shrink-0 truncate font-semibold hover:underline">
              {stay.roomName}
            </Link>
            <div className="min-w-0 flex-1">
              <GuestNames stay={stay} isCompact />
            </div>
            <span className="shrink-0 text-end whitespace-nowrap tabular-nums">
              <BillCell bill={stay.bill} currency={currency} isNarrow />
            </span>
          </div>
          <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs">
            <StayStateBadge state={stay.state} />
            <dl className="flex flex-wrap gap-x-3 gap-y-1">
              <CardFact label={t('stays.checkIn')}>{formatShortDateTime(stay.checkInAt, timeZone)}</CardFact>
              <CardFact label={t('stays.expectedCheckOut')}>{formatShortDateTime(stay.expectedCheckOutAt, timeZone)}</CardFact>
              <CardFact label={t('stays.price')}>{formatMoney(stay.priceAmount, currency, { narrow: true })}</CardFact>
              <CardFact label={t('stays.deposit')}>{formatMoney(stay.bill.depositHeld, currency, { narrow: true })}</CardFact>
            </dl>
            <StayEndNote stay={stay} timeZone={timeZone} className="text-muted-foreground" />
          </div>
        </li>
      ))}
    </ul>
  );
}

/** One fact of a stay's card: its name, muted, and its value. */
function CardFact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex items-baseline gap-1">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="tabular-nums">{children}</dd>
    </div>
  );
}
