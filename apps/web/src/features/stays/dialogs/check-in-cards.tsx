import { useQuery } from '@tanstack/react-query';
import { CreditCard } from 'lucide-react';
import { useWatch, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { CARD_RULES } from '@console/shared';
import { FormField, fieldControlProps } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { useLaterTexts } from '@/lib/use-later-texts';
import { cn } from '@/lib/utils';
import type { CheckInFormOutput, CheckInFormValues } from './check-in-form';
import { stayQueries } from '../api';

type Form = UseFormReturn<CheckInFormValues, unknown, CheckInFormOutput>;

/**
 * "Room cards" at check-in (spec §3 "number of room cards"): how many to write (0: none), written
 * one by one on the desk reader right after the check-in succeeds. When the room already has
 * cards in use, whether the new ones replace them (new: those stop opening the door once a new
 * card is used) or go beside them (duplicates).
 */
export function CheckInCards({ form, roomId }: { form: Form; roomId: number }) {
  const { t } = useTranslation();
  const [countText, mode] = useWatch({ control: form.control, name: ['roomCards', 'roomCardsMode'] });
  const count = Number(countText);
  const wantsCards = Number.isInteger(count) && count > 0;
  const inUse = useQuery(stayQueries.roomCardsInUse(roomId, wantsCards));
  const roomHasCards = wantsCards && (inUse.data?.total ?? 0) > 0;
  const message = form.formState.errors.roomCards?.message;
  const error = message ? t(message, { max: CARD_RULES.cardsPerStayMax }) : undefined;
  // Its texts are of the later part (group `cards`), there long before a check-in in practice.
  if (!useLaterTexts('cards.checkIn.section')) return null;
  return (
    <section className="space-y-3" aria-labelledby="check-in-cards-heading" data-testid="check-in-cards">
      <h3 id="check-in-cards-heading" className="flex items-center gap-1.5 text-sm font-semibold">
        <CreditCard className="size-4" aria-hidden />
        {t('cards.checkIn.section')}
      </h3>
      <FormField id="roomCards" label={t('cards.checkIn.count')} hint={t('cards.checkIn.hint')} error={error} className="max-w-xs">
        <Input
          type="number"
          inputMode="numeric"
          min={0}
          max={CARD_RULES.cardsPerStayMax}
          step={1}
          className="w-24 tabular-nums"
          {...fieldControlProps('roomCards', error, true)}
          {...form.register('roomCards')}
          data-testid="roomCards"
        />
      </FormField>
      {roomHasCards && (
        <fieldset className="grid gap-2" data-testid="check-in-cards-mode">
          <legend className="mb-2 text-sm">{t('cards.checkIn.roomHasCards')}</legend>
          <div className="grid gap-2 sm:grid-cols-2">
            {(['new', 'duplicate'] as const).map((value) => (
              <label
                key={value}
                htmlFor={`roomCardsMode-${value}`}
                className={cn(
                  'has-focus-visible:ring-ring flex cursor-pointer gap-2.5 rounded-md border p-3 text-sm has-focus-visible:ring-2',
                  mode === value ? 'border-primary bg-primary/5' : 'hover:bg-accent/50',
                )}
              >
                <input
                  type="radio"
                  id={`roomCardsMode-${value}`}
                  value={value}
                  className="accent-primary mt-0.5 size-4 shrink-0"
                  data-testid={`roomCardsMode-${value}`}
                  {...form.register('roomCardsMode')}
                />
                <span className="leading-snug">{t(value === 'new' ? 'cards.checkIn.modeNew' : 'cards.checkIn.modeDuplicate')}</span>
              </label>
            ))}
          </div>
        </fieldset>
      )}
    </section>
  );
}
