import { Controller, useWatch, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { STAY_LENGTH_UNITS } from '@console/shared';
import { FormField, fieldControlProps } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { fieldMessage } from '@/lib/field-message';
import { fromInputValue, toInputValue } from '@/lib/hotel-time';
import type { CheckInFormOutput, CheckInFormValues } from './check-in-form';
import { ExtendButtons } from './extend-buttons';
import { addToTime, checkInTimeOn, checkOutAfter, lengthOfStay, type HotelClock } from './stay-times';
import { StayTimeField } from './stay-time-field';

/**
 * The period of a new stay: check-in time, length and unit, expected check-out. The length fills
 * the check-out from the check-in time, at the hotel's check-out time for days, months and years
 * (stay-times.ts: a guest of the small hours leaves the same morning); a check-out typed or picked
 * by hand sets the length it makes (nights for days), so the two always agree. A day picked on the
 * calendar for the check-in gets the hotel's check-in time (now, today). "+1 day" and its peers add
 * to the check-out (twice is two days), and the length follows.
 */
export function StayPeriodFields({ form, hotel }: { form: UseFormReturn<CheckInFormValues, unknown, CheckInFormOutput>; hotel: HotelClock }) {
  const { t } = useTranslation();
  const { timeZone } = hotel;
  const { errors } = form.formState;
  const lengthValue = useWatch({ control: form.control, name: 'lengthValue' });
  const count = Math.max(1, Number.parseInt(lengthValue, 10) || 1);

  /** The length and its unit fill the expected check-out from the check-in time. */
  const fillCheckOut = () => {
    const { checkInAt, lengthValue: text, lengthUnit } = form.getValues();
    const start = fromInputValue(checkInAt, timeZone);
    const amount = Number(text);
    if (!start || !Number.isInteger(amount) || amount < 1) return;
    const end = checkOutAfter(new Date(start), amount, lengthUnit, hotel);
    const { isTouched } = form.getFieldState('expectedCheckOutAt');
    form.setValue('expectedCheckOutAt', toInputValue(end, timeZone), { shouldDirty: true, shouldValidate: isTouched || form.formState.isSubmitted });
  };

  /** A check-out set by hand: the length follows it. */
  const followCheckOut = (value: string) => {
    const { checkInAt, lengthUnit } = form.getValues();
    const start = fromInputValue(checkInAt, timeZone);
    const end = fromInputValue(value, timeZone);
    if (!start || !end || Date.parse(end) <= Date.parse(start)) return;
    form.setValue('lengthValue', String(lengthOfStay(new Date(start), new Date(end), lengthUnit, hotel)), { shouldDirty: true });
  };

  const error = (name: 'checkInAt' | 'expectedCheckOutAt') => fieldMessage(t, errors[name]?.message);
  return (
    <div className="grid gap-x-3 gap-y-1 sm:grid-cols-2">
      <StayTimeField
        control={form.control}
        name="checkInAt"
        id="checkInAt"
        label={t('frontDesk.stay.checkInAt')}
        error={error('checkInAt')}
        required
        timeZone={timeZone}
        timeForPickedDay={(date) => checkInTimeOn(date, hotel, new Date())}
        onValueChange={fillCheckOut}
      />
      <FormField id="lengthValue" label={t('frontDesk.stay.length')}>
        <div className="flex gap-2">
          <Input
            {...fieldControlProps('lengthValue')}
            type="number"
            inputMode="numeric"
            min={1}
            step={1}
            className="min-w-0 flex-1"
            data-testid="length-value"
            {...form.register('lengthValue', { onChange: fillCheckOut })}
          />
          <Controller
            control={form.control}
            name="lengthUnit"
            render={({ field }) => (
              <Select
                value={field.value}
                onValueChange={(value) => {
                  field.onChange(value);
                  fillCheckOut();
                }}
              >
                <SelectTrigger id="length-unit" ref={field.ref} className="w-32 shrink-0" aria-label={t('frontDesk.stay.lengthUnit')} data-testid="length-unit">
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  {STAY_LENGTH_UNITS.map((unit) => (
                    <SelectItem key={unit} value={unit} data-testid={`length-unit-${unit}`}>
                      {t(`frontDesk.stay.lengthUnits.${unit}`, { count })}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            )}
          />
        </div>
      </FormField>
      <StayTimeField
        control={form.control}
        name="expectedCheckOutAt"
        id="expectedCheckOutAt"
        label={t('frontDesk.stay.expectedCheckOutAt')}
        hint={t('frontDesk.stay.expectedCheckOutHint')}
        error={error('expectedCheckOutAt')}
        required
        timeZone={timeZone}
        onValueChange={followCheckOut}
      />
      <div className="sm:col-span-2">
        <ExtendButtons
          label={t('frontDesk.stay.extendBy')}
          onExtend={(amount, unit) => {
            const { checkInAt, expectedCheckOutAt } = form.getValues();
            const start = fromInputValue(checkInAt, timeZone);
            const next = addToTime(expectedCheckOutAt, start ? new Date(start) : new Date(), amount, unit, timeZone);
            form.setValue('expectedCheckOutAt', next, { shouldDirty: true, shouldValidate: true });
            followCheckOut(next);
          }}
          testIdPrefix="checkIn"
        />
      </div>
    </div>
  );
}
