import type { ReactNode } from 'react';
import { Link, type LinkProps } from '@tanstack/react-router';
import {
  BatteryWarning,
  BedDouble,
  Coffee,
  Hammer,
  KeyRound,
  PlaneLanding,
  PlaneTakeoff,
  Receipt,
  SprayCan,
  TimerOff,
  Wallet,
  type LucideIcon,
} from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Card } from '@/components/ui/card';
import { formatDate, formatNumber } from '@/lib/format';
import { currentLanguage } from '@/lib/language';
import { formatMoney } from '@/lib/money';
import { useUserInfo } from '@/lib/user-info';
import { cn } from '@/lib/utils';
import { NotReadyList, RoomList, UnpaidList, type Today } from './today-lists';

const n = formatNumber;

const percent = (part: number, whole: number) =>
  new Intl.NumberFormat(currentLanguage().header, { style: 'percent', maximumFractionDigits: 0 }).format(whole ? part / whole : 0);

/** The day's figures, each opening the list it counts; the locks, deliveries, keys not ready and unpaid bills name their rooms. */
export function Figures({ data }: { data: Today }) {
  const { t } = useTranslation();
  const currency = useUserInfo()?.hotel.currency ?? 'CNY';
  const date = data.date;
  return (
    <div className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-3 2xl:grid-cols-4" data-testid="today-figures">
      <Figure
        id="arrivals"
        icon={PlaneLanding}
        title={t('today.arrivals.title')}
        value={n(data.arrivals.expected)}
        caption={t('today.arrivals.caption')}
        detail={t('today.arrivals.detail', { number: n(data.arrivals.arrived) })}
        link={{ to: '/room/tenant', search: { state: 'reserved', from: date, to: date } }}
      />
      <Figure
        id="departures"
        icon={PlaneTakeoff}
        title={t('today.departures.title')}
        value={n(data.departures.due)}
        caption={t('today.departures.caption')}
        detail={t('today.departures.detail', { number: n(data.departures.departed) })}
        link={{ to: '/room/tenant', search: { state: 'in_house' } }}
      />
      <Figure
        id="in-house"
        icon={BedDouble}
        title={t('today.inHouse.title')}
        value={n(data.inHouse)}
        caption={t('today.inHouse.caption')}
        detail={t('today.inHouse.detail', {
          occupied: n(data.rooms.checked_in),
          total: n(data.rooms.total),
          percent: percent(data.rooms.checked_in, data.rooms.total),
        })}
        link={{ to: '/room/tenant', search: { state: 'in_house' } }}
      />
      <Figure
        id="overdue"
        icon={TimerOff}
        title={t('today.overdue.title')}
        value={n(data.overdue)}
        caption={t('today.overdue.caption')}
        tone={data.overdue > 0 ? 'danger' : 'default'}
        link={{ to: '/room/tenant', search: { state: 'expired' } }}
      />
      <Figure
        id="dirty"
        icon={SprayCan}
        title={t('today.dirty.title')}
        value={n(data.rooms.dirty)}
        caption={t('today.dirty.caption')}
        tone={data.rooms.dirty > 0 ? 'warning' : 'default'}
        link={{ to: '/room', search: { status: 'dirty' } }}
      />
      <Figure
        id="maintain"
        icon={Hammer}
        title={t('today.maintain.title')}
        value={n(data.rooms.maintain)}
        caption={t('today.maintain.caption')}
        tone={data.rooms.maintain > 0 ? 'warning' : 'default'}
        link={{ to: '/room', search: { status: 'maintain' } }}
      />
      <Figure
        id="breakfast"
        icon={Coffee}
        title={t('today.breakfast.title')}
        value={n(data.breakfast.guests)}
        caption={t('today.breakfast.caption')}
        detail={t('today.breakfast.detail', { served: n(data.breakfast.served), rooms: n(data.breakfast.stays) })}
        link={{ to: '/room/breakfast', search: { date } }}
      />
      <Figure
        id="locks"
        icon={BatteryWarning}
        title={t('today.locks.title')}
        value={n(data.locks.roomsTotal)}
        caption={t('today.locks.caption')}
        detail={t('today.locks.detail', { offline: n(data.locks.offline), low: n(data.locks.lowBattery), percent: n(data.locks.lowBatteryBelow) })}
        tone={data.locks.roomsTotal > 0 ? 'warning' : 'default'}
        link={{ to: '/room', search: { view: 'table' } }}
        isWide={data.locks.rooms.length > 0}
      >
        <RoomList
          testId="today-lock-rooms"
          more={data.locks.roomsTotal - data.locks.rooms.length}
          rooms={data.locks.rooms.map((room) => ({
            id: room.id,
            name: room.name,
            tab: 'lock' as const,
            note: [
              room.online === false ? t('today.locks.offline') : null,
              room.battery !== null && room.battery < data.locks.lowBatteryBelow ? t('today.locks.battery', { power: n(room.battery) }) : null,
            ]
              .filter(Boolean)
              .join(' · '),
          }))}
        />
      </Figure>
      <Figure
        id="deliveries"
        icon={KeyRound}
        title={t('today.deliveries.title')}
        value={n(data.deliveries.failed)}
        caption={t('today.deliveries.caption')}
        detail={t('today.deliveries.detail', { passwords: n(data.deliveries.passwords), faces: n(data.deliveries.faces), cards: n(data.deliveries.cards) })}
        tone={data.deliveries.failed > 0 ? 'danger' : 'default'}
        isWide={data.deliveries.rooms.length > 0}
      >
        <RoomList
          testId="today-delivery-rooms"
          more={data.deliveries.roomsTotal - data.deliveries.rooms.length}
          rooms={data.deliveries.rooms.map((room) => ({
            id: room.id,
            name: room.name,
            tab: 'credentials' as const,
            note: t('today.deliveries.room', { number: n(room.passwords + room.faces + room.cards) }),
          }))}
        />
      </Figure>
      <Figure
        id="not-ready"
        icon={KeyRound}
        title={t('today.notReady.title')}
        value={n(data.notReady.total)}
        caption={t('today.notReady.caption')}
        tone={data.notReady.total > 0 ? 'danger' : 'default'}
        isWide={data.notReady.total > 0}
      >
        <NotReadyList notReady={data.notReady} timeZone={data.timeZone} />
      </Figure>
      {data.unpaidDepartures && (
        <Figure
          id="unpaid"
          icon={Receipt}
          title={t('today.unpaid.title')}
          value={n(data.unpaidDepartures.total)}
          caption={t('today.unpaid.caption')}
          detail={data.unpaidDepartures.total > 0 ? t('today.unpaid.detail', { amount: formatMoney(data.unpaidDepartures.owed, currency) }) : undefined}
          tone={data.unpaidDepartures.total > 0 ? 'danger' : 'default'}
          isWide={data.unpaidDepartures.total > 0}
        >
          <UnpaidList departures={data.unpaidDepartures} currency={currency} timeZone={data.timeZone} />
        </Figure>
      )}
      {data.takings && (
        <Figure
          id="takings"
          icon={Wallet}
          title={t('today.takings.title')}
          value={formatMoney(data.takings.total, data.takings.currency)}
          caption={
            // In the night before the audit the books are still on the day before: say whose takings these are.
            data.businessDate === data.date ? t('today.takings.caption') : t('today.takings.openDay', { date: formatDate(data.businessDate) })
          }
          detail={t('today.takings.detail', {
            received: formatMoney(data.takings.received, data.takings.currency),
            refunded: formatMoney(Math.abs(data.takings.paidOut), data.takings.currency),
            entries: n(data.takings.entries),
          })}
          isWide
        />
      )}
    </div>
  );
}

type Tone = 'default' | 'warning' | 'danger';
const TONES: Record<Tone, string> = { default: '', warning: 'text-warning-foreground', danger: 'text-destructive' };

interface FigureProps {
  id: string;
  icon: LucideIcon;
  title: string;
  value: string;
  caption: string;
  detail?: string;
  tone?: Tone;
  /** The list the figure counts, opened by the figure (a card without one has none that can filter so). */
  link?: LinkProps;
  /** Its content needs the width of a phone (a list of rooms, an amount of money): the whole row there, not half. */
  isWide?: boolean;
  children?: ReactNode;
}

/** One figure: its title, the number, what the number counts and a detail; the whole head a link to its list. */
function Figure({ id, icon: Icon, title, value, caption, detail, tone = 'default', link, isWide = false, children }: FigureProps) {
  const head = (
    <>
      <span className="text-muted-foreground flex items-center gap-2 text-sm font-medium">
        <Icon className="size-4 shrink-0" aria-hidden />
        <span data-testid="today-title">{title}</span>
      </span>
      <span className={cn('mt-2 block text-2xl font-semibold tabular-nums sm:text-3xl', TONES[tone])} data-testid="today-value">
        {value}
      </span>
      <span className="text-muted-foreground block text-sm">{caption}</span>
      {detail && (
        <span className="mt-1 block text-sm" data-testid="today-detail">
          {detail}
        </span>
      )}
    </>
  );
  return (
    <Card className={cn('gap-3 p-0', isWide && 'max-sm:col-span-2')} data-testid={`today-${id}`} data-tone={tone} data-wide={isWide || undefined}>
      {link ? (
        <Link
          {...link}
          className="hover:bg-muted/50 focus-visible:ring-ring block rounded-xl p-4 outline-none focus-visible:ring-2 focus-visible:ring-inset sm:p-5"
          data-testid="today-link"
        >
          {head}
        </Link>
      ) : (
        <div className="p-4 sm:p-5">{head}</div>
      )}
      {children}
    </Card>
  );
}
