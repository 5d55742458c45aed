import { useState } from 'react';
import { Link } from '@tanstack/react-router';
import { ArrowLeft, ListChecks, RotateCcw, X } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { CARD_RULES } from '@console/shared';
import { DateTimeField } from '@/components/date-time-field';
import { PageHeader } from '@/components/list-page';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { FormField, fieldControlProps } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { useHotelSettings } from '@/lib/hotel-settings';
import { fromInputValue } from '@/lib/hotel-time';
import { cn } from '@/lib/utils';
import { resetDraft, useCardDraft, type AdminCardKind, type CardDraft } from './card-draft';
import { CardWriter, type ReserveInput, type WriteCardAtDesk } from './card-writer';
import { RoomFitNote, useRoomFit } from './room-fit-note';
import { cannotBeOneCard, roomFit, type RoomFit } from './room-fit';

const LIST_PATH = { management: '/center/personalCenter/cardList', universal: '/center/personalCenter/universalCardList' } as const;
const TITLE = { management: 'route.addManagementCard', universal: 'route.addUniversalCard' } as const;

type DraftErrors = Partial<Record<'rooms' | 'validFrom' | 'validUntil' | 'note', string>>;

/** What is wrong with the draft (message keys), field by field. */
export function draftErrors(draft: CardDraft, timeZone: string, now: number, fit: RoomFit = roomFit(draft.rooms.length, draft.allRooms)): DraftErrors {
  const errors: DraftErrors = {};
  if (fit === 'none') errors.rooms = 'validation.roomRequired';
  else if (cannotBeOneCard(fit)) errors.rooms = 'cardAdmin.add.tooManyRooms';
  const from = fromInputValue(draft.validFrom.trim(), timeZone);
  if (!draft.validFrom.trim()) errors.validFrom = 'validation.dateTimeRequired';
  else if (!from) errors.validFrom = 'validation.dateTimeInvalid';
  if (!draft.noEnd) {
    const until = fromInputValue(draft.validUntil.trim(), timeZone);
    if (!draft.validUntil.trim()) errors.validUntil = 'validation.dateTimeRequired';
    else if (!until) errors.validUntil = 'validation.dateTimeInvalid';
    else if (from && Date.parse(until) <= Date.parse(from)) errors.validUntil = 'validation.endAfterStart';
    else if (Date.parse(until) <= now) errors.validUntil = 'cardAdmin.add.endInPast';
  }
  if (draft.note.trim().length > CARD_RULES.noteMaxLength) errors.note = 'validation.textTooLong';
  return errors;
}

/** The reserve input of a valid draft. */
export function draftInput(kind: AdminCardKind, draft: CardDraft, timeZone: string): ReserveInput {
  return {
    kind,
    allRooms: draft.allRooms,
    roomIds: draft.allRooms ? undefined : draft.rooms.map((r) => r.id),
    validFrom: fromInputValue(draft.validFrom.trim(), timeZone),
    validUntil: draft.noEnd ? null : fromInputValue(draft.validUntil.trim(), timeZone),
    note: draft.note.trim(),
  };
}

/**
 * The personal centre's `addCard` (a management card) and `addUniversalCard` (a universal, master
 * card): the rooms it opens (all, or chosen on `selectRoomList`, with whether they fit on one card),
 * its validity and note, then written on the card on the desk reader. What is typed is kept while
 * the rooms are chosen.
 */
export function AddCardPage({ kind, writeCard }: { kind: AdminCardKind; writeCard: WriteCardAtDesk }) {
  const { t } = useTranslation();
  const { timeZone } = useHotelSettings();
  const [draft, update] = useCardDraft(kind, timeZone);
  const [checkedAt, setCheckedAt] = useState<number | null>(null);
  const fit = useRoomFit(
    draft.rooms.map((r) => r.id),
    draft.allRooms,
  );
  const errors = checkedAt === null ? {} : draftErrors(draft, timeZone, checkedAt, fit);
  const shown = (name: keyof DraftErrors) => (errors[name] ? t(errors[name]) : undefined);

  const prepare = () => {
    const now = Date.now();
    setCheckedAt(now);
    const found = draftErrors(draft, timeZone, now, fit);
    if (Object.keys(found).length > 0) {
      const first = (['rooms', 'validFrom', 'validUntil', 'note'] as const).find((name) => found[name]);
      document
        .getElementById(
          first === 'rooms' ? 'card-rooms-choose' : `card-${first === 'validFrom' ? 'valid-from' : first === 'validUntil' ? 'valid-until' : 'note'}`,
        )
        ?.focus();
      return null;
    }
    return draftInput(kind, draft, timeZone);
  };

  return (
    <div className="flex flex-col gap-4" data-testid={`add-${kind}-card`}>
      <PageHeader
        title={t(TITLE[kind])}
        before={
          <Button variant="ghost" size="icon" asChild>
            <Link to={LIST_PATH[kind]} aria-label={t('cardAdmin.add.backToList')} data-testid="card-back-to-list">
              <ArrowLeft className="rtl:rotate-180" aria-hidden />
            </Link>
          </Button>
        }
        actions={
          <Button variant="outline" onClick={() => resetDraft(kind)} data-testid="card-start-over">
            <RotateCcw aria-hidden />
            {t('cardAdmin.add.startOver')}
          </Button>
        }
      />
      <p className="text-muted-foreground max-w-3xl text-sm">{t(`cardAdmin.add.intro.${kind}`)}</p>

      <div className="grid gap-4 lg:grid-cols-2">
        <Card className="gap-4 py-4">
          <CardHeader className="px-4">
            <CardTitle>{t('cardAdmin.add.cardSection')}</CardTitle>
          </CardHeader>
          <CardContent className="flex flex-col gap-4 px-4">
            <fieldset className="grid gap-2" aria-describedby="card-rooms-fit">
              <legend className="mb-2 text-sm leading-none font-medium">{t('cardAdmin.columns.rooms')}</legend>
              <div className="grid gap-2 sm:grid-cols-2">
                {(['chosen', 'all'] as const).map((value) => {
                  const checked = value === 'all' ? draft.allRooms : !draft.allRooms;
                  return (
                    <label
                      key={value}
                      htmlFor={`card-rooms-${value}`}
                      className={cn(
                        'has-focus-visible:ring-ring flex cursor-pointer gap-2.5 rounded-md border p-3 text-sm has-focus-visible:ring-2',
                        checked ? 'border-primary bg-primary/5' : 'hover:bg-accent/50',
                      )}
                    >
                      <input
                        type="radio"
                        id={`card-rooms-${value}`}
                        name="card-rooms"
                        checked={checked}
                        onChange={() => update({ allRooms: value === 'all' })}
                        className="accent-primary mt-0.5 size-4 shrink-0"
                        data-testid={`card-rooms-${value}`}
                      />
                      <span className="grid gap-1">
                        <span className="font-medium">{t(`cardAdmin.add.rooms.${value}`)}</span>
                        <span className="text-muted-foreground text-xs leading-snug">{t(`cardAdmin.add.rooms.${value}Hint`)}</span>
                      </span>
                    </label>
                  );
                })}
              </div>
              {!draft.allRooms && (
                <div className="grid gap-2">
                  <div className="flex flex-wrap items-center gap-2">
                    <Button variant="outline" asChild>
                      <Link
                        id="card-rooms-choose"
                        to="/center/personalCenter/selectRoomList"
                        search={{ kind }}
                        data-testid="card-rooms-choose"
                        aria-invalid={shown('rooms') ? true : undefined}
                      >
                        <ListChecks aria-hidden />
                        {draft.rooms.length ? t('cardAdmin.add.changeRooms') : t('cardAdmin.add.chooseRooms')}
                      </Link>
                    </Button>
                  </div>
                  {draft.rooms.length > 0 && (
                    <ul className="flex flex-wrap gap-1" aria-label={t('cardAdmin.add.chosenRooms')} data-testid="card-rooms-chosen">
                      {draft.rooms.map((room) => (
                        <li
                          key={room.id}
                          className="bg-muted flex items-center gap-1 rounded-full py-0.5 ps-2 pe-1 text-xs"
                          data-testid={`card-room-${room.id}`}
                        >
                          <span dir="auto">{room.name}</span>
                          <button
                            type="button"
                            className="hover:bg-background rounded-full p-0.5"
                            onClick={() => update({ rooms: draft.rooms.filter((r) => r.id !== room.id) })}
                            aria-label={t('common.removeRoom', { room: room.name })}
                          >
                            <X className="size-3" aria-hidden />
                          </button>
                        </li>
                      ))}
                    </ul>
                  )}
                </div>
              )}
              <RoomFitNote id="card-rooms-fit" count={draft.rooms.length} fit={fit} />
              {shown('rooms') && !cannotBeOneCard(fit) && (
                <p className="text-destructive text-sm" role="alert" data-testid="card-rooms-error">
                  {shown('rooms')}
                </p>
              )}
            </fieldset>

            <section className="grid gap-3" aria-labelledby="card-validity-heading">
              <h2 id="card-validity-heading" className="text-sm font-semibold">
                {t('cardAdmin.columns.validity')}
              </h2>
              <div className="grid gap-x-3 gap-y-1 sm:grid-cols-2">
                <FormField id="card-valid-from" label={t('cardAdmin.add.validFrom')} error={shown('validFrom')} required>
                  <DateTimeField
                    id="card-valid-from"
                    value={draft.validFrom}
                    onChange={(validFrom) => update({ validFrom })}
                    timeZone={timeZone}
                    invalid={Boolean(shown('validFrom'))}
                    describedBy={shown('validFrom') ? 'card-valid-from-error' : undefined}
                    data-testid="card-valid-from"
                  />
                </FormField>
                {!draft.noEnd && (
                  <FormField id="card-valid-until" label={t('cardAdmin.add.validUntil')} error={shown('validUntil')} required>
                    <DateTimeField
                      id="card-valid-until"
                      value={draft.validUntil}
                      onChange={(validUntil) => update({ validUntil })}
                      timeZone={timeZone}
                      invalid={Boolean(shown('validUntil'))}
                      describedBy={shown('validUntil') ? 'card-valid-until-error' : undefined}
                      data-testid="card-valid-until"
                    />
                  </FormField>
                )}
              </div>
              <div className="flex items-center gap-2">
                <Checkbox id="card-no-end" checked={draft.noEnd} onCheckedChange={(checked) => update({ noEnd: checked === true })} data-testid="card-no-end" />
                <Label htmlFor="card-no-end" className="font-normal">
                  {t('cardAdmin.add.noEnd')}
                </Label>
              </div>
              {draft.noEnd && <p className="text-muted-foreground text-sm">{t('cardAdmin.add.noEndHint')}</p>}
            </section>

            <FormField id="card-note" label={t('cardAdmin.columns.note')} hint={t(`cardAdmin.add.noteHint.${kind}`)} error={shown('note')}>
              <Input
                {...fieldControlProps('card-note', shown('note'), true)}
                value={draft.note}
                onChange={(e) => update({ note: e.target.value })}
                maxLength={CARD_RULES.noteMaxLength + 20}
                autoComplete="off"
                dir="auto"
                data-testid="card-note"
              />
            </FormField>
          </CardContent>
        </Card>

        <Card className="gap-4 py-4">
          <CardHeader className="px-4">
            <CardTitle>{t('cardAdmin.writer.title')}</CardTitle>
            <CardDescription>{t(`cardAdmin.add.writeText.${kind}`)}</CardDescription>
          </CardHeader>
          <CardContent className="px-4">
            <CardWriter
              writeCard={writeCard}
              prepare={prepare}
              label={t(`cardAdmin.add.write.${kind}`)}
              disabled={cannotBeOneCard(fit)}
              disabledReason={t('cardAdmin.add.tooManyRooms')}
            />
          </CardContent>
        </Card>
      </div>
    </div>
  );
}
