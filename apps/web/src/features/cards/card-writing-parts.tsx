import { Check, CircleDashed, ShieldAlert, SkipForward, X } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Checkbox } from '@/components/ui/checkbox';
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import type { RoomCardMode } from '@/lib/room-cards';
import { cn } from '@/lib/utils';
import type { DispensedWritingStep } from './card-writing';
import type { Slot } from './use-card-writing';

/** The first card's mode when the stay has cards: a duplicate (its cards still open the door) or new (they stop), with a warning. */
export function ModeChoice({
  chosen,
  onChoose,
  isBusy,
  isNewOverCards,
}: {
  chosen: RoomCardMode;
  onChoose(mode: RoomCardMode): void;
  isBusy: boolean;
  isNewOverCards: boolean;
}) {
  const { t } = useTranslation();
  return (
    <fieldset className="grid gap-2" disabled={isBusy} data-testid="card-write-mode">
      <legend className="mb-2 text-sm font-medium">{t('cards.write.modeLegend')}</legend>
      <div className="grid gap-2 sm:grid-cols-2">
        {(['duplicate', 'new'] as const).map((mode) => (
          <label
            key={mode}
            htmlFor={`card-write-mode-${mode}`}
            className={cn(
              'has-focus-visible:ring-ring flex cursor-pointer gap-2.5 rounded-md border p-3 text-sm has-focus-visible:ring-2',
              chosen === mode ? 'border-primary bg-primary/5' : 'hover:bg-accent/50',
            )}
          >
            <input
              type="radio"
              id={`card-write-mode-${mode}`}
              name="card-write-mode"
              value={mode}
              checked={chosen === mode}
              onChange={() => onChoose(mode)}
              className="accent-primary mt-0.5 size-4 shrink-0"
              data-testid={`card-write-mode-${mode}`}
            />
            <span className="grid gap-1">
              <span className="font-medium">{t(mode === 'new' ? 'cards.write.modeNew' : 'cards.write.modeDuplicate')}</span>
              <span className="text-muted-foreground text-xs leading-snug">
                {t(mode === 'new' ? 'cards.write.modeNewHint' : 'cards.write.modeDuplicateHint')}
              </span>
            </span>
          </label>
        ))}
      </div>
      {isNewOverCards && (
        <p
          className="flex items-start gap-2 rounded-md border border-amber-300 bg-amber-50 p-2 text-xs text-amber-900"
          role="note"
          data-testid="card-write-new-warning"
        >
          <ShieldAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
          {t('cards.write.newWarning')}
        </p>
      )}
    </fieldset>
  );
}

/** "Take the cards from the dispenser", remembered on this computer. */
export function DispenserSwitch({ on, isBusy, onChange }: { on: boolean; isBusy: boolean; onChange(on: boolean): void }) {
  const { t } = useTranslation();
  return (
    <div className="flex items-start gap-2.5 rounded-md border p-3" data-testid="card-write-dispenser" data-on={on}>
      <Checkbox
        id="card-write-from-dispenser"
        className="mt-0.5"
        checked={on}
        onCheckedChange={(checked) => onChange(checked === true)}
        disabled={isBusy}
        data-testid="card-write-from-dispenser"
      />
      <div className="grid gap-1">
        <Label htmlFor="card-write-from-dispenser" className="leading-snug">
          {t('cards.write.dispenserSwitch')}
        </Label>
        <p className="text-muted-foreground text-xs leading-snug">{t('cards.write.dispenserSwitchHint')}</p>
      </div>
    </div>
  );
}

/** The cards of the stay, each written (with its number), skipped, being written or waiting. */
export function CardSlots({ slots, index, isFinished, isBusy }: { slots: Slot[]; index: number; isFinished: boolean; isBusy: boolean }) {
  const { t } = useTranslation();
  return (
    <ol className="grid gap-1.5 text-sm" aria-label={t('cards.write.cardsLabel')} data-testid="card-write-slots">
      {slots.map((slot, i) => {
        const isCurrent = i === index && !isFinished;
        return (
          <li
            key={i}
            className={cn('flex flex-wrap items-center gap-2 rounded-md border px-3 py-1.5', isCurrent && 'border-primary bg-primary/5')}
            data-testid={`card-slot-${i + 1}`}
            data-status={slot.status}
            aria-current={isCurrent ? 'step' : undefined}
          >
            {slot.status === 'written' ? (
              <Check className="size-4 text-emerald-600" aria-hidden />
            ) : slot.status === 'skipped' ? (
              <SkipForward className="text-muted-foreground size-4 rtl:rotate-180" aria-hidden />
            ) : isCurrent && isBusy ? (
              <Spinner />
            ) : (
              <CircleDashed className="text-muted-foreground size-4" aria-hidden />
            )}
            <span className="font-medium">{t('cards.write.cardLabel', { index: i + 1 })}</span>
            <span className="text-muted-foreground">
              {slot.status === 'written' ? (
                <span dir="auto">{t('cards.write.slotWritten', { number: slot.cardNumber })}</span>
              ) : slot.status === 'skipped' ? (
                t('cards.write.slotSkipped')
              ) : isCurrent ? (
                t(isBusy ? 'cards.write.slotWriting' : 'cards.write.slotCurrent')
              ) : (
                t('cards.write.slotWaiting')
              )}
            </span>
          </li>
        );
      })}
    </ol>
  );
}

/** All cards done: how many were written (the number of a single one), and that skipped ones can be written later. */
export function WriteFinished({ written, count }: { written: Extract<Slot, { status: 'written' }>[]; count: number }) {
  const { t } = useTranslation();
  return (
    <div className="grid gap-2" role="status" data-testid="card-write-finished">
      <p className="flex items-center gap-2 text-sm font-medium">
        {written.length > 0 ? (
          <Check className="size-4 text-emerald-600" aria-hidden />
        ) : (
          <SkipForward className="text-muted-foreground size-4 rtl:rotate-180" aria-hidden />
        )}
        {t('cards.write.finished', { written: written.length, count })}
      </p>
      {count === 1 && written[0] && (
        <p className="text-muted-foreground text-sm" data-testid="card-write-written-number">
          {t('cards.write.slotWritten', { number: written[0].cardNumber })}
        </p>
      )}
      {written.length < count && <p className="text-muted-foreground text-xs">{t('cards.write.skippedNote')}</p>}
    </div>
  );
}

/** The steps of writing one card (four, or five with the dispenser's), each done, under way, failed or to come. */
export function WriteSteps({
  steps,
  current,
  failed,
}: {
  steps: readonly DispensedWritingStep[];
  current: DispensedWritingStep | null;
  failed: DispensedWritingStep | null;
}) {
  const { t } = useTranslation();
  const at = steps.indexOf(current ?? failed ?? steps[0]!);
  return (
    <ol
      className={cn('grid gap-1 text-sm sm:gap-2', steps.length > 4 ? 'sm:grid-cols-5' : 'sm:grid-cols-4')}
      aria-label={t('cards.write.stepsLabel')}
      data-testid="card-write-steps"
    >
      {steps.map((s, i) => {
        const state = failed === s ? 'failed' : i < at ? 'done' : i === at && current ? 'current' : 'todo';
        return (
          <li
            key={s}
            className={cn(
              'flex items-center gap-1.5',
              state === 'todo' && 'text-muted-foreground',
              state === 'failed' && 'text-destructive',
              state === 'current' && 'font-medium',
            )}
            data-testid={`card-write-step-${s}`}
            data-state={state}
            aria-current={state === 'current' ? 'step' : undefined}
          >
            {state === 'done' ? (
              <Check className="size-4 shrink-0 text-emerald-600" aria-hidden />
            ) : state === 'current' ? (
              <Spinner />
            ) : state === 'failed' ? (
              <X className="size-4 shrink-0" aria-hidden />
            ) : (
              <CircleDashed className="size-4 shrink-0" aria-hidden />
            )}
            <span>{t(`cards.steps.${s}`)}</span>
          </li>
        );
      })}
    </ol>
  );
}
