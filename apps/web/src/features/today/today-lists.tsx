import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { FixKeyButton } from '@/components/fix-key';
import { formatNumber, formatShortDateTime } from '@/lib/format';
import { formatMoney } from '@/lib/money';
import type { RouterOutputs } from '@/lib/trpc-types';

/** The today board as the server counts it. */
export type Today = RouterOutputs['today']['get'];

const n = formatNumber;

/**
 * Bills left owing at check-out (newest first): the room, the guest, what is still owed and why;
 * each opens the guest's page, where the stay's bill takes the payment of what is owed.
 */
export function UnpaidList({ departures, currency, timeZone }: { departures: NonNullable<Today['unpaidDepartures']>; currency: string; timeZone: string }) {
  const { t } = useTranslation();
  if (departures.items.length === 0) return null;
  return (
    <ul className="-mt-3 space-y-1.5 px-4 pb-4 text-sm sm:px-5" data-testid="today-unpaid-list">
      {departures.items.map((d) => (
        <li key={d.folioId} className="grid gap-0.5" data-testid={`today-unpaid-${d.stayId}`} data-owed={d.owed}>
          <span className="flex items-baseline justify-between gap-2">
            {d.guestId !== null ? (
              <Link
                to="/room/thetouristsDetails"
                search={{ id: d.guestId }}
                className="focus-visible:ring-ring min-w-0 truncate rounded-sm font-medium outline-none hover:underline focus-visible:ring-2"
                aria-label={t('today.unpaid.collect', { room: d.roomName, guest: d.guestName ?? '—', amount: formatMoney(d.owed, currency) })}
                data-testid="today-unpaid-collect"
              >
                {d.roomName} · {d.guestName ?? '—'}
              </Link>
            ) : (
              <span className="min-w-0 truncate font-medium">{d.roomName}</span>
            )}
            <span className="text-destructive shrink-0 font-medium tabular-nums">{formatMoney(d.owed, currency)}</span>
          </span>
          <span className="text-muted-foreground text-xs">
            {t('today.unpaid.since', { time: formatShortDateTime(d.owedAt, timeZone), reason: t(`orders.owingReasons.${d.reason}`) })}
            {d.note ? ` · ${d.note}` : ''}
          </span>
        </li>
      ))}
      {departures.total > departures.items.length && (
        <li className="text-muted-foreground text-xs">{t('today.more', { number: n(departures.total - departures.items.length) })}</li>
      )}
    </ul>
  );
}

/** Arrivals without a working key, each with why and "fix now" (docs/access-rules.md "Arrivals not ready"). */
export function NotReadyList({ notReady, timeZone }: { notReady: Today['notReady']; timeZone: string }) {
  const { t } = useTranslation();
  if (notReady.stays.length === 0) return null;
  const why = (reason: string) =>
    reason === 'no_code' ? t('today.notReady.noCode') : reason === 'not_confirmed' ? t('accessRules.offlineNotConfirmed') : t(`credentials.errors.${reason}`);
  return (
    <ul className="-mt-3 space-y-2 px-4 pb-4 text-sm sm:px-5" data-testid="today-not-ready">
      {notReady.stays.map((s) => (
        <li key={s.stayId} className="flex flex-wrap items-center justify-between gap-2" data-testid={`today-not-ready-${s.stayId}`} data-reason={s.reason}>
          <span className="grid min-w-0 gap-0.5">
            <Link
              to="/room/$roomId"
              params={{ roomId: s.roomId }}
              search={{ tab: 'credentials' }}
              className="focus-visible:ring-ring inline-flex min-h-6 items-center truncate rounded-sm font-medium outline-none hover:underline focus-visible:ring-2"
            >
              <bdi>{s.roomName}</bdi> · <bdi>{s.guestName || '—'}</bdi>
            </Link>
            <span className="text-muted-foreground text-xs">
              {t('today.notReady.item', { time: formatShortDateTime(s.checkInAt, timeZone), why: why(s.reason) })}
            </span>
          </span>
          <FixKeyButton stayId={s.stayId} about={t('today.notReady.fix', { room: s.roomName, guest: s.guestName || '—' })} />
        </li>
      ))}
      {notReady.total > notReady.stays.length && (
        <li className="text-muted-foreground text-xs">{t('today.more', { number: n(notReady.total - notReady.stays.length) })}</li>
      )}
    </ul>
  );
}

/** The rooms behind a figure (locks, deliveries), each a link to its page; "and N more" past the first few. */
export function RoomList({
  rooms,
  more,
  testId,
}: {
  rooms: { id: number; name: string; tab: 'lock' | 'credentials'; note: string }[];
  more: number;
  testId: string;
}) {
  const { t } = useTranslation();
  if (rooms.length === 0) return null;
  return (
    <ul className="-mt-3 space-y-1 px-4 pb-4 text-sm sm:px-5" data-testid={testId}>
      {rooms.map((room) => (
        <li key={room.id} className="flex items-baseline justify-between gap-2">
          <Link
            to="/room/$roomId"
            params={{ roomId: room.id }}
            search={{ tab: room.tab }}
            className="focus-visible:ring-ring inline-flex min-h-6 items-center truncate rounded-sm font-medium outline-none hover:underline focus-visible:ring-2"
            data-testid={`today-room-${room.id}`}
          >
            {room.name}
          </Link>
          <span className="text-muted-foreground shrink-0 text-xs">{room.note}</span>
        </li>
      ))}
      {more > 0 && <li className="text-muted-foreground text-xs">{t('today.more', { number: n(more) })}</li>}
    </ul>
  );
}
