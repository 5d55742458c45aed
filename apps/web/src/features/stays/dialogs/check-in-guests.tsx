import { useFieldArray, type UseFormReturn } from 'react-hook-form';
import { Plus, Trash2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { LIMITS } from '@console/shared';
import { Button } from '@/components/ui/button';
import { fieldMessage } from '@/lib/field-message';
import type { CheckInFormOutput, CheckInFormValues } from './check-in-form';
import { emptyGuest } from './form-rules';
import { GuestFields } from './guest-fields';

/** The guests of a new stay: the main guest first (focused when the dialog opens), co-guests after, up to the shared limit. */
export function CheckInGuests({ form, timeZone }: { form: UseFormReturn<CheckInFormValues, unknown, CheckInFormOutput>; timeZone: string }) {
  const { t } = useTranslation();
  const guests = useFieldArray({ control: form.control, name: 'guests' });
  const { errors } = form.formState;
  const isFull = guests.fields.length >= LIMITS.guestsPerStayMax;
  const listError = fieldMessage(t, errors.guests?.root?.message ?? errors.guests?.message);
  return (
    <section className="space-y-3" aria-labelledby="check-in-guests-heading">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id="check-in-guests-heading" className="text-sm font-semibold">
          {t('frontDesk.stay.guestsSection', { n: guests.fields.length })}
        </h3>
        <Button
          type="button"
          variant="outline"
          size="sm"
          onClick={() => guests.append({ ...emptyGuest })}
          disabled={isFull}
          title={isFull ? t('frontDesk.stay.maxGuests', { max: LIMITS.guestsPerStayMax }) : undefined}
          data-testid="add-guest"
        >
          <Plus aria-hidden />
          {t('frontDesk.stay.addGuest')}
        </Button>
      </div>
      {listError ? (
        <p role="alert" className="text-destructive text-sm">
          {listError}
        </p>
      ) : null}
      {guests.fields.map((field, index) => (
        <div key={field.id} role="group" aria-labelledby={`guest-${index}-heading`} className="grid gap-3 rounded-md border p-3" data-testid={`guest-${index}`}>
          <div className="flex min-h-8 items-center justify-between gap-2">
            <h4 id={`guest-${index}-heading`} className="text-sm font-medium">
              {index === 0 ? t('frontDesk.stay.mainGuest') : t('frontDesk.stay.coGuest', { n: index })}
            </h4>
            {index > 0 && (
              <Button
                type="button"
                variant="ghost"
                size="sm"
                className="text-destructive hover:text-destructive"
                onClick={() => guests.remove(index)}
                aria-label={t('frontDesk.stay.removeCoGuestRow', { n: index })}
                data-testid={`remove-guest-${index}`}
              >
                <Trash2 aria-hidden />
                {t('frontDesk.stay.remove')}
              </Button>
            )}
          </div>
          <GuestFields
            control={form.control}
            register={form.register}
            name={`guests.${index}`}
            idPrefix={`guest-${index}`}
            autoFocus={index === 0}
            timeZone={timeZone}
          />
        </div>
      ))}
    </section>
  );
}
