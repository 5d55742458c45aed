import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { AlertTriangle, BedDouble, CreditCard, UserRound } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { CARD_RULES, type TStayState } from '@console/shared';
import { DateTimeField } from '@/components/date-time-field';
import { PageHeader } from '@/components/list-page';
import { LoadError, failedQuery } from '@/components/load-error';
import { RoomPicker } from '@/components/room-picker';
import { StayStateBadge } from '@/components/status-badges';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { FormField, fieldControlProps } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { SkeletonRows } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatDateTime } from '@/lib/format';
import { useHotelSettings } from '@/lib/hotel-settings';
import { fromInputValue, toInputValue } from '@/lib/hotel-time';
import { cn } from '@/lib/utils';
import { cardQueries } from '../api';
import { CardIssueState, CardValidity } from './card-bits';
import { CardWriter, type ReserveInput, type WriteCardAtDesk } from './card-writer';

const DAY = 86_400_000;

type PeriodErrors = { from?: string; until?: string; note?: string };

/** What is wrong with the period and note of a card for a room without a stay (message keys). */
function periodErrors(period: { from: string; until: string }, note: string, timeZone: string, now: number): PeriodErrors {
  const errors: PeriodErrors = {};
  const from = fromInputValue(period.from.trim(), timeZone);
  const until = fromInputValue(period.until.trim(), timeZone);
  if (!period.from.trim()) errors.from = 'validation.dateTimeRequired';
  else if (!from) errors.from = 'validation.dateTimeInvalid';
  if (!period.until.trim()) errors.until = 'validation.dateTimeRequired';
  else if (!until) errors.until = 'validation.dateTimeInvalid';
  else if (from && Date.parse(until) <= Date.parse(from)) errors.until = 'validation.endAfterStart';
  else if (Date.parse(until) <= now) errors.until = 'cardAdmin.add.endInPast';
  if (note.trim().length > CARD_RULES.noteMaxLength) errors.note = 'validation.textTooLong';
  return errors;
}

interface RoomCardPageProps {
  writeCard: WriteCardAtDesk;
  roomId: number | undefined;
  onRoom(roomId: number | undefined): void;
}

/**
 * `/cardToEncryption/cardToEncryption` (spec §2 room card encryption; issue 8 §3): a card written
 * (or written again) on the desk reader for one room. With a stay in the room, a room card of the
 * stay: a new card (the room's earlier cards stop at their lock once it is used) or another card
 * for the same stay; without one, a card for this room alone and the period chosen. A card still
 * issued is named and can be taken back first. The room's cards in use are listed under it.
 */
export function RoomCardPage({ writeCard, roomId, onRoom }: RoomCardPageProps) {
  const { t } = useTranslation();
  const { timeZone } = useHotelSettings();
  const room = useQuery(cardQueries.room(roomId));
  const stay = room.data?.currentStay ?? null;
  const [mode, setMode] = useState<'new' | 'duplicate'>('new');
  const [period, setPeriod] = useState(() => ({ from: toInputValue(new Date(), timeZone), until: toInputValue(new Date(Date.now() + DAY), timeZone) }));
  const [note, setNote] = useState('');

  const [checkedAt, setCheckedAt] = useState<number | null>(null);
  const errors = checkedAt === null ? {} : periodErrors(period, note, timeZone, checkedAt);
  const shown = (name: keyof PeriodErrors) => (!stay && errors[name] ? t(errors[name]) : undefined);

  const prepare = (): ReserveInput | null => {
    if (!room.data) return null;
    if (stay) return { kind: 'room', stayId: stay.id, mode };
    const now = Date.now();
    setCheckedAt(now);
    if (Object.keys(periodErrors(period, note, timeZone, now)).length > 0) return null;
    return {
      kind: 'universal',
      roomIds: [room.data.id],
      validFrom: fromInputValue(period.from.trim(), timeZone),
      validUntil: fromInputValue(period.until.trim(), timeZone),
      note: note.trim(),
    };
  };

  return (
    <div className="flex flex-col gap-4" data-testid="room-card">
      <PageHeader title={t('route.roomCardEncryption')} />
      <p className="text-muted-foreground max-w-3xl text-sm">{t('cardAdmin.room.intro')}</p>
      <div className="grid gap-4 lg:grid-cols-2">
        <Card className="gap-4 py-4">
          <CardHeader className="px-4">
            <CardTitle className="flex items-center gap-2">
              <BedDouble className="size-4" aria-hidden />
              {t('cardAdmin.room.roomSection')}
            </CardTitle>
          </CardHeader>
          <CardContent className="flex flex-col gap-4 px-4">
            <div className="grid gap-2">
              <Label htmlFor="room-card-room">{t('cardAdmin.columns.room')}</Label>
              <RoomPicker
                id="room-card-room"
                value={room.data ? [{ id: room.data.id, name: room.data.name }] : []}
                onChange={(rooms) => {
                  setCheckedAt(null);
                  setMode('new');
                  onRoom(rooms[0]?.id);
                }}
                placeholder={t('cardAdmin.room.chooseRoom')}
                data-testid="room-card-room"
              />
            </div>
            {roomId !== undefined && room.isLoading && <SkeletonRows rows={2} label={t('common.loading')} />}
            {room.isError && <LoadError query={failedQuery(room)} what={t('cardAdmin.room.what')} />}
            {room.data && !room.data.lockId && (
              <p
                className="border-warning bg-warning/10 flex items-start gap-2 rounded-md border px-3 py-2 text-sm"
                role="status"
                data-testid="room-card-no-lock"
              >
                <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden />
                {t('cardAdmin.room.noLock')}
              </p>
            )}
            {room.data && stay && (
              <div className="grid gap-3" data-testid="room-card-stay" data-stay-id={stay.id}>
                <div className="bg-muted/50 grid gap-1 rounded-md border px-3 py-2 text-sm">
                  <p className="flex flex-wrap items-center gap-2 font-medium">
                    <UserRound className="size-4" aria-hidden />
                    <span dir="auto">{stay.guestName ?? '—'}</span>
                    <StayStateBadge state={stay.status as TStayState} />
                  </p>
                  <p className="text-muted-foreground tabular-nums">
                    {formatDateTime(stay.checkInAt, timeZone)} – {formatDateTime(stay.expectedCheckOutAt, timeZone)}
                  </p>
                </div>
                <fieldset className="grid gap-2">
                  <legend className="mb-2 text-sm leading-none font-medium">{t('cardAdmin.room.modeLabel')}</legend>
                  {(['new', 'duplicate'] as const).map((value) => (
                    <label
                      key={value}
                      htmlFor={`room-card-mode-${value}`}
                      className={cn(
                        'has-focus-visible:ring-ring flex cursor-pointer gap-2.5 rounded-md border p-3 text-sm has-focus-visible:ring-2',
                        mode === value ? 'border-primary bg-primary/5' : 'hover:bg-accent/50',
                      )}
                    >
                      <input
                        type="radio"
                        id={`room-card-mode-${value}`}
                        name="room-card-mode"
                        checked={mode === value}
                        onChange={() => setMode(value)}
                        className="accent-primary mt-0.5 size-4 shrink-0"
                        data-testid={`room-card-mode-${value}`}
                      />
                      <span className="grid gap-1">
                        <span className="font-medium">{t(`cardAdmin.room.modes.${value}`)}</span>
                        <span className="text-muted-foreground text-xs leading-snug">{t(`cardAdmin.room.modes.${value}Hint`)}</span>
                      </span>
                    </label>
                  ))}
                </fieldset>
              </div>
            )}
            {room.data && !stay && (
              <section className="grid gap-3" aria-labelledby="room-card-period-heading" data-testid="room-card-period">
                <h2 id="room-card-period-heading" className="text-sm font-semibold">
                  {t('cardAdmin.room.noStayTitle')}
                </h2>
                <p className="text-muted-foreground text-sm">{t('cardAdmin.room.noStayText')}</p>
                <div className="grid gap-x-3 gap-y-1 sm:grid-cols-2">
                  <FormField id="room-card-from" label={t('cardAdmin.add.validFrom')} error={shown('from')} required>
                    <DateTimeField
                      id="room-card-from"
                      value={period.from}
                      onChange={(from) => setPeriod((p) => ({ ...p, from }))}
                      timeZone={timeZone}
                      invalid={Boolean(shown('from'))}
                      data-testid="room-card-from"
                    />
                  </FormField>
                  <FormField id="room-card-until" label={t('cardAdmin.add.validUntil')} error={shown('until')} required>
                    <DateTimeField
                      id="room-card-until"
                      value={period.until}
                      onChange={(until) => setPeriod((p) => ({ ...p, until }))}
                      timeZone={timeZone}
                      invalid={Boolean(shown('until'))}
                      data-testid="room-card-until"
                    />
                  </FormField>
                </div>
                <FormField id="room-card-note" label={t('cardAdmin.columns.note')} hint={t('cardAdmin.room.noteHint')} error={shown('note')}>
                  <Input
                    {...fieldControlProps('room-card-note', shown('note'), true)}
                    value={note}
                    onChange={(e) => setNote(e.target.value)}
                    autoComplete="off"
                    dir="auto"
                    data-testid="room-card-note"
                  />
                </FormField>
              </section>
            )}
          </CardContent>
        </Card>

        <Card className="gap-4 py-4">
          <CardHeader className="px-4">
            <CardTitle className="flex items-center gap-2">
              <CreditCard className="size-4" aria-hidden />
              {t('cardAdmin.writer.title')}
            </CardTitle>
            <CardDescription>
              {room.data
                ? stay
                  ? t('cardAdmin.room.writeStayText', { room: room.data.name })
                  : t('cardAdmin.room.writeRoomText', { room: room.data.name })
                : t('cardAdmin.room.chooseFirst')}
            </CardDescription>
          </CardHeader>
          <CardContent className="px-4">
            <CardWriter
              key={`${roomId ?? ''}-${stay?.id ?? ''}`}
              writeCard={writeCard}
              prepare={prepare}
              label={t('cardAdmin.room.write')}
              disabled={!room.data}
              disabledReason={t('cardAdmin.room.chooseFirst')}
            />
          </CardContent>
        </Card>
      </div>
      {room.data && <RoomCards roomId={room.data.id} timeZone={timeZone} />}
    </div>
  );
}

/** The cards of the room in use now: every kind that opens it. */
function RoomCards({ roomId, timeZone }: { roomId: number; timeZone: string }) {
  const { t } = useTranslation();
  const cards = useQuery(cardQueries.roomCardsInUse(roomId));
  const items = cards.data?.items ?? [];
  return (
    <Card className="gap-0 p-0" data-testid="room-card-list">
      <CardHeader className="border-b p-4">
        <CardTitle>{t('cardAdmin.room.cardsTitle')}</CardTitle>
      </CardHeader>
      {cards.isError && !cards.data ? (
        <LoadError query={failedQuery(cards)} what={t('cardAdmin.room.cardsWhat')} />
      ) : cards.isLoading ? (
        <SkeletonRows rows={2} label={t('common.loading')} />
      ) : items.length === 0 ? (
        <EmptyState icon={CreditCard} title={t('cardAdmin.room.noCards')} data-testid="room-card-list-empty" />
      ) : (
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>{t('cardAdmin.columns.number')}</TableHead>
              <TableHead>{t('cardAdmin.columns.kind')}</TableHead>
              <TableHead>{t('cardAdmin.columns.holder')}</TableHead>
              <TableHead>{t('cardAdmin.columns.validity')}</TableHead>
              <TableHead>{t('cardAdmin.columns.state')}</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {items.map((card) => (
              <TableRow key={card.id} data-testid={`room-card-row-${card.cardNumber}`}>
                <TableCell className="font-mono text-xs tabular-nums" dir="ltr">
                  {card.cardNumber}
                </TableCell>
                <TableCell>
                  {t(`cardAdmin.kinds.${card.kind}`)}
                  {card.duplicate && <span className="text-muted-foreground ms-1 text-xs">({t('cardAdmin.room.duplicate')})</span>}
                </TableCell>
                <TableCell className="max-w-48 truncate" dir="auto">
                  {card.holderName || card.note || '—'}
                </TableCell>
                <TableCell>
                  <CardValidity from={card.validFrom} until={card.validUntil} timeZone={timeZone} />
                </TableCell>
                <TableCell>
                  <CardIssueState issue={card} />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Card>
  );
}
