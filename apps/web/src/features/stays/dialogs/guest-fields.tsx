import { Controller, get, useFormState, type Control, type FieldError, type FieldValues, type Path, type UseFormRegister } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { GENDERS, LIMITS } from '@console/shared';
import { FormField, fieldControlProps } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { fieldMessage } from '@/lib/field-message';
import type { TGuestForm } from './form-rules';
import { StayTimeField } from './stay-time-field';

const MAX = LIMITS.guestFieldMax;

type GuestErrors = Partial<Record<keyof TGuestForm, FieldError>> | undefined;

/**
 * The identity and contact fields of one guest (spec: name, gender, nationality, birth date, ID
 * number; mobile, e-mail), for the guest at `name` of a form (`guests.0`, `guest`). Controls get
 * the ids `<idPrefix>-name`, `<idPrefix>-gender`, ...
 */
export function GuestFields<T extends FieldValues>({
  control,
  register,
  name,
  idPrefix,
  autoFocus,
  timeZone,
}: {
  control: Control<T, unknown, T>;
  register: UseFormRegister<T>;
  name: string;
  idPrefix: string;
  autoFocus?: boolean;
  /** The hotel's: the calendar of the birth date opens on its today. */
  timeZone: string;
}) {
  const { t } = useTranslation();
  const { errors } = useFormState({ control, name: name as Path<T> });
  const guestErrors = get(errors, name) as GuestErrors;
  const path = (field: keyof TGuestForm) => `${name}.${field}` as Path<T>;
  const id = (field: keyof TGuestForm) => `${idPrefix}-${field}`;
  const error = (field: keyof TGuestForm) => fieldMessage(t, guestErrors?.[field]?.message);

  return (
    <div className="grid gap-x-3 gap-y-1 sm:grid-cols-2">
      <FormField id={id('name')} label={t('frontDesk.stay.guestName')} error={error('name')} required>
        <Input
          {...fieldControlProps(id('name'), error('name'))}
          autoComplete="off"
          maxLength={MAX.name}
          aria-required
          autoFocus={autoFocus}
          {...register(path('name'))}
        />
      </FormField>
      <FormField id={id('gender')} label={t('frontDesk.stay.gender')} error={error('gender')}>
        <Controller
          control={control}
          name={path('gender')}
          render={({ field }) => (
            <Select value={field.value as string} onValueChange={field.onChange}>
              <SelectTrigger
                {...fieldControlProps(id('gender'), error('gender'))}
                ref={field.ref}
                onBlur={field.onBlur}
                className="w-full"
                data-testid={id('gender')}
              >
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {GENDERS.map((gender) => (
                  <SelectItem key={gender} value={gender}>
                    {t(`frontDesk.stay.genders.${gender}`)}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          )}
        />
      </FormField>
      <FormField id={id('idNumber')} label={t('frontDesk.stay.idNumber')} error={error('idNumber')}>
        <Input
          {...fieldControlProps(id('idNumber'), error('idNumber'))}
          autoComplete="off"
          maxLength={MAX.idNumber}
          dir="ltr"
          className="text-start"
          {...register(path('idNumber'))}
        />
      </FormField>
      <FormField id={id('mobile')} label={t('frontDesk.stay.mobile')} error={error('mobile')}>
        <Input
          {...fieldControlProps(id('mobile'), error('mobile'))}
          type="tel"
          inputMode="tel"
          autoComplete="off"
          maxLength={MAX.mobile}
          dir="ltr"
          className="text-start"
          {...register(path('mobile'))}
        />
      </FormField>
      <FormField id={id('nationality')} label={t('frontDesk.stay.nationality')} error={error('nationality')}>
        <Input
          {...fieldControlProps(id('nationality'), error('nationality'))}
          autoComplete="off"
          maxLength={MAX.nationality}
          {...register(path('nationality'))}
        />
      </FormField>
      <StayTimeField
        control={control}
        name={path('birthDate')}
        id={id('birthDate')}
        label={t('frontDesk.stay.birthDate')}
        error={error('birthDate')}
        timeZone={timeZone}
        withTime={false}
      />
      <FormField id={id('email')} label={t('frontDesk.stay.email')} error={error('email')} className="sm:col-span-2">
        <Input
          {...fieldControlProps(id('email'), error('email'))}
          type="email"
          inputMode="email"
          autoComplete="off"
          maxLength={MAX.email}
          dir="ltr"
          className="text-start"
          {...register(path('email'))}
        />
      </FormField>
    </div>
  );
}
