import { Controller, useWatch, type Control, type FieldValues, type Path, type UseFormRegister } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { GENDERS, ROLES, STAFF_MAX, type TRole } from '@console/shared';
import { DateTimeField } from '@/components/date-time-field';
import { RoomPicker, type PickedRoom } from '@/components/room-picker';
import { Checkbox } from '@/components/ui/checkbox';
import { FormField, fieldControlProps, fieldErrorId } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { NativeSelect, NativeSelectOption } from '@/components/ui/native-select';
import { useHotelSettings } from '@/lib/hotel-settings';
import { hasPermission, useUserInfo } from '@/lib/user-info';

/**
 * The role, the rooms (all of them, or the ones picked: the server searches and pages them) and
 * apiKeyAuth. Only an owner makes owners; only a member who manages API keys grants apiKeyAuth.
 */
export function AccessFields<T extends FieldValues, TOut = T>({
  control,
  idPrefix,
  errors,
  isLastOwner = false,
}: {
  control: Control<T, unknown, TOut>;
  idPrefix: string;
  errors: Partial<Record<'role' | 'rooms' | 'apiKeyAuth', string>>;
  /** The hotel's only owner stays an owner (the server refuses anything else): no other role is offered. */
  isLastOwner?: boolean;
}) {
  const { t } = useTranslation();
  const user = useUserInfo();
  const mayMakeOwners = user?.role === 'owner';
  const mayGrantApiKeyAuth = hasPermission(user, 'apikey.manage');
  const allRooms = useWatch({ control, name: 'allRooms' as Path<T> }) as boolean;
  const id = (name: string) => `${idPrefix}-${name}`;
  return (
    <>
      <FormField
        id={id('role')}
        label={t('staff.form.role')}
        hint={isLastOwner ? t('staff.lastOwner.roleHint') : t('staff.form.roleHint')}
        error={errors.role}
        required
      >
        <Controller
          control={control}
          name={'role' as Path<T>}
          render={({ field }) => (
            <NativeSelect
              {...fieldControlProps(id('role'), errors.role, true)}
              ref={field.ref}
              value={field.value as string}
              onChange={(e) => field.onChange(e.target.value as TRole)}
              onBlur={field.onBlur}
              wrapperClassName="w-full sm:w-64"
              data-testid={id('role')}
            >
              {ROLES.map((role) => (
                <NativeSelectOption
                  key={role}
                  value={role}
                  disabled={(role === 'owner' && !mayMakeOwners && field.value !== 'owner') || (isLastOwner && role !== 'owner')}
                >
                  {t(`staff.roles.${role}`)}
                </NativeSelectOption>
              ))}
            </NativeSelect>
          )}
        />
      </FormField>

      <fieldset className="grid gap-2" aria-describedby={errors.rooms ? fieldErrorId(id('rooms')) : undefined} data-testid={id('rooms')}>
        <legend className="mb-1 text-sm leading-none font-medium">{t('staff.form.rooms')}</legend>
        <Controller
          control={control}
          name={'allRooms' as Path<T>}
          render={({ field }) => (
            <div className="flex flex-wrap gap-4" role="radiogroup" aria-label={t('staff.form.rooms')}>
              {[true, false].map((all) => (
                <label key={String(all)} className="flex items-center gap-2 text-sm">
                  <input
                    type="radio"
                    name={id('rooms-mode')}
                    className="accent-primary size-4"
                    checked={field.value === all}
                    onChange={() => field.onChange(all)}
                    onBlur={field.onBlur}
                    data-testid={id(all ? 'rooms-all' : 'rooms-some')}
                  />
                  {all ? t('staff.form.allRooms') : t('staff.form.someRooms')}
                </label>
              ))}
            </div>
          )}
        />
        {!allRooms && (
          <Controller
            control={control}
            name={'rooms' as Path<T>}
            render={({ field }) => (
              <RoomPicker
                id={id('room-picker')}
                multiple
                value={field.value as PickedRoom[]}
                onChange={field.onChange}
                placeholder={t('staff.form.pickRooms')}
                aria-label={t('staff.form.pickRooms')}
                invalid={Boolean(errors.rooms)}
                describedBy={errors.rooms ? fieldErrorId(id('rooms')) : undefined}
                data-testid={id('room-picker')}
              />
            )}
          />
        )}
        <p className="text-muted-foreground text-sm">{allRooms ? t('staff.form.allRoomsHint') : t('staff.form.someRoomsHint')}</p>
        <p id={fieldErrorId(id('rooms'))} className="text-destructive text-sm empty:hidden">
          {errors.rooms ? <span role="alert">{errors.rooms}</span> : null}
        </p>
      </fieldset>

      <Controller
        control={control}
        name={'apiKeyAuth' as Path<T>}
        render={({ field }) => (
          <div className="grid gap-1">
            <div className="flex items-center gap-2">
              <Checkbox
                id={id('api-key-auth')}
                ref={field.ref}
                checked={field.value === true}
                disabled={!mayGrantApiKeyAuth}
                onCheckedChange={(checked) => field.onChange(checked === true)}
                onBlur={field.onBlur}
                aria-describedby={id('api-key-auth-hint')}
                data-testid={id('api-key-auth')}
              />
              <Label htmlFor={id('api-key-auth')} className="font-normal">
                {t('staff.form.apiKeyAuth')}
              </Label>
            </div>
            <p id={id('api-key-auth-hint')} className="text-muted-foreground ps-6 text-sm">
              {mayGrantApiKeyAuth ? t('staff.form.apiKeyAuthHint') : t('staff.form.apiKeyAuthOwnersOnly')}
            </p>
            {errors.apiKeyAuth && (
              <p className="text-destructive ps-6 text-sm" role="alert">
                {errors.apiKeyAuth}
              </p>
            )}
          </div>
        )}
      />
    </>
  );
}

/** The member's record in the hotel: name, gender, nationality and date of birth. */
export function ProfileFields<T extends FieldValues, TOut = T>({
  control,
  register,
  idPrefix,
  errors,
}: {
  control: Control<T, unknown, TOut>;
  register: UseFormRegister<T>;
  idPrefix: string;
  errors: Partial<Record<'name' | 'gender' | 'nationality' | 'birthDate', string>>;
}) {
  const { t } = useTranslation();
  const { timeZone } = useHotelSettings();
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <FormField id={`${idPrefix}-name`} label={t('staff.form.name')} error={errors.name} required>
        <Input
          {...fieldControlProps(`${idPrefix}-name`, errors.name)}
          aria-required
          autoComplete="off"
          maxLength={STAFF_MAX.name + 20}
          {...register('name' as Path<T>)}
          data-testid={`${idPrefix}-name`}
        />
      </FormField>
      <FormField id={`${idPrefix}-gender`} label={t('frontDesk.stay.gender')} error={errors.gender}>
        <NativeSelect
          {...fieldControlProps(`${idPrefix}-gender`, errors.gender)}
          wrapperClassName="w-full"
          {...register('gender' as Path<T>)}
          data-testid={`${idPrefix}-gender`}
        >
          {GENDERS.map((gender) => (
            <NativeSelectOption key={gender} value={gender}>
              {t(`frontDesk.stay.genders.${gender}`)}
            </NativeSelectOption>
          ))}
        </NativeSelect>
      </FormField>
      <FormField id={`${idPrefix}-nationality`} label={t('frontDesk.stay.nationality')} error={errors.nationality}>
        <Input
          {...fieldControlProps(`${idPrefix}-nationality`, errors.nationality)}
          autoComplete="off"
          maxLength={STAFF_MAX.nationality + 20}
          {...register('nationality' as Path<T>)}
          data-testid={`${idPrefix}-nationality`}
        />
      </FormField>
      <FormField id={`${idPrefix}-birth-date`} label={t('frontDesk.stay.birthDate')} error={errors.birthDate}>
        <Controller
          control={control}
          name={'birthDate' as Path<T>}
          render={({ field }) => (
            <DateTimeField
              ref={field.ref}
              id={`${idPrefix}-birth-date`}
              value={field.value as string}
              onChange={field.onChange}
              onBlur={field.onBlur}
              timeZone={timeZone}
              withTime={false}
              invalid={Boolean(errors.birthDate)}
              describedBy={errors.birthDate ? fieldErrorId(`${idPrefix}-birth-date`) : undefined}
              data-testid={`${idPrefix}-birth-date`}
            />
          )}
        />
      </FormField>
    </div>
  );
}
