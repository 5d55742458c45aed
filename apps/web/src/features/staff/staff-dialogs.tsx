import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { GENDERS, STAFF_MAX, ZAccount, ZStaffProfile, ZStaffRole } from '@console/shared';
import { FormDialog } from '@/components/form-dialog';
import type { PickedRoom } from '@/components/room-picker';
import { FormField, fieldControlProps } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { appErrorOf } from '@/lib/api-errors';
import { fieldMessage } from '@/lib/field-message';
import { toast } from '@/lib/toast';
import { trpc, trpcClient } from '@/lib/trpc';
import { useAppForm } from '@/lib/use-app-form';
import { invalidateStaff } from './api';
import { AccessFields, ProfileFields } from './staff-fields';
import type { StaffMember } from './staff-types';

const ZPickedRooms = z
  .array(z.object({ id: z.number(), name: z.string() }), { error: 'validation.roomsInvalid' })
  .max(STAFF_MAX.rooms, { error: 'validation.roomsInvalid' });

/** A date of birth as typed: empty, or the server's rule (a date, not in the future). */
const ZBirthDateField = z.string().superRefine((value, ctx) => {
  if (value === '') return;
  const parsed = ZStaffProfile.shape.birthDate.safeParse(value);
  if (!parsed.success) ctx.addIssue({ code: 'custom', message: parsed.error.issues[0]?.message ?? 'validation.dateInvalid' });
});

/** The access part of both forms: the role, all rooms or a list of them, and apiKeyAuth. */
const accessShape = { role: ZStaffRole, allRooms: z.boolean(), rooms: ZPickedRooms, apiKeyAuth: z.boolean() };

/** The member's record in the hotel: name, gender, nationality, date of birth (ZStaffProfile's rules and message keys). */
const profileShape = {
  name: ZStaffProfile.shape.name,
  gender: z.enum(GENDERS, { error: 'validation.genderInvalid' }),
  nationality: ZStaffProfile.shape.nationality,
  birthDate: ZBirthDateField,
};
const PROFILE_FIELDS = ['name', 'gender', 'nationality', 'birthDate'];

/** "Add staff": the shared rules of packages/shared (ZStaffAddInput), with the same message keys as the server. */
const addSchema = z.object({ account: ZAccount, ...profileShape, ...accessShape });
const ADD_FIELDS = ['account', ...PROFILE_FIELDS, 'role', 'allRooms', 'roomIds', 'apiKeyAuth'];

const editSchema = z.object({ ...profileShape, ...accessShape });
const EDIT_FIELDS = [...PROFILE_FIELDS, 'role', 'allRooms', 'roomIds', 'apiKeyAuth'];

/** The server's error in the dialog unless it is all about fields shown next to them. */
function shownErrorOf(error: unknown, fields: string[]) {
  const named = Object.keys(appErrorOf(error)?.fields ?? {});
  return named.length > 0 && named.every((f) => fields.includes(f)) ? null : error;
}

/** Adds a member: an existing account by mobile or e-mail, or a new one by mobile (its first password comes by SMS). */
export function AddStaffDialog({ open, onOpenChange }: { open: boolean; onOpenChange(open: boolean): void }) {
  if (!open) return null;
  return <AddStaffForm onOpenChange={onOpenChange} />;
}

function AddStaffForm({ onOpenChange }: { onOpenChange(open: boolean): void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const form = useAppForm(addSchema, {
    account: '',
    name: '',
    gender: 'unknown',
    nationality: '',
    birthDate: '',
    role: 'staff',
    allRooms: true,
    rooms: [],
    apiKeyAuth: false,
  });
  const { errors } = form.formState;
  const add = useMutation(
    trpc.staff.add.mutationOptions({
      meta: { showsErrors: true },
      onSuccess: (member) => {
        toast.success(
          member.created ? t('staff.added.created', { name: member.name, account: member.mobile ?? '' }) : t('staff.added.existing', { name: member.name }),
        );
        void invalidateStaff(queryClient);
        onOpenChange(false);
      },
      onError: (error) => form.applyServerErrors(error),
    }),
  );
  const submit = form.handleSubmit((values) => {
    if (add.isPending) return;
    add.mutate({
      account: values.account,
      name: values.name,
      gender: values.gender,
      nationality: values.nationality,
      birthDate: values.birthDate || null,
      role: values.role,
      allRooms: values.allRooms,
      roomIds: values.allRooms ? [] : values.rooms.map((r) => r.id),
      apiKeyAuth: values.apiKeyAuth,
    });
  });
  const error = (name: keyof typeof errors) => fieldMessage(t, errors[name]?.message);
  const roomsError = fieldMessage(t, errors.rooms?.message ?? errors.rooms?.root?.message ?? (errors as Record<string, { message?: string }>).roomIds?.message);

  return (
    <FormDialog
      open
      onOpenChange={onOpenChange}
      title={t('staff.form.addTitle')}
      description={t('staff.form.addDescription')}
      isDirty={form.formState.isDirty}
      isSaving={add.isPending}
      error={shownErrorOf(add.error, ADD_FIELDS)}
      onSubmit={(event) => void submit(event)}
      submitLabel={t('staff.form.addSubmit')}
      size="lg"
      initialFocus="staff-add-account"
      safeToRetry={false}
      data-testid="staff-add-dialog"
      submitTestId="staff-add-submit"
    >
      <FormField id="staff-add-account" label={t('staff.form.account')} hint={t('staff.form.accountHint')} error={error('account')} required>
        <Input
          {...fieldControlProps('staff-add-account', error('account'), true)}
          aria-required
          autoComplete="off"
          dir="ltr"
          className="sm:w-80"
          {...form.register('account')}
          data-testid="staff-add-account"
        />
      </FormField>
      <ProfileFields
        control={form.control}
        register={form.register}
        idPrefix="staff-add"
        errors={{ name: error('name'), gender: error('gender'), nationality: error('nationality'), birthDate: error('birthDate') }}
      />
      <AccessFields control={form.control} idPrefix="staff-add" errors={{ role: error('role'), rooms: roomsError, apiKeyAuth: error('apiKeyAuth') }} />
    </FormDialog>
  );
}

/** Changes a member's record, role, rooms and apiKeyAuth (only what changed is sent, one change after another). */
export function EditStaffDialog({ member, onClose }: { member: StaffMember | null; onClose(): void }) {
  if (!member) return null;
  return <EditStaffForm key={member.id} member={member} onClose={onClose} />;
}

function sameRooms(a: PickedRoom[], b: PickedRoom[]) {
  const ids = new Set(a.map((r) => r.id));
  return a.length === b.length && b.every((r) => ids.has(r.id));
}

function EditStaffForm({ member, onClose }: { member: StaffMember; onClose(): void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const profile = { name: member.name, gender: member.gender, nationality: member.nationality, birthDate: member.birthDate ?? '' };
  const form = useAppForm(editSchema, { ...profile, role: member.role, allRooms: member.allRooms, rooms: member.rooms, apiKeyAuth: member.apiKeyAuth });
  const { errors } = form.formState;
  const save = useMutation({
    meta: { showsErrors: true },
    mutationFn: async (values: z.output<typeof editSchema>) => {
      if (
        values.name !== profile.name ||
        values.gender !== profile.gender ||
        values.nationality !== profile.nationality ||
        values.birthDate !== profile.birthDate
      ) {
        await trpcClient.staff.setProfile.mutate({
          id: member.id,
          name: values.name,
          gender: values.gender,
          nationality: values.nationality,
          birthDate: values.birthDate || null,
        });
      }
      if (values.role !== member.role) await trpcClient.staff.setRole.mutate({ id: member.id, role: values.role });
      if (values.allRooms !== member.allRooms || (!values.allRooms && !sameRooms(values.rooms, member.rooms))) {
        await trpcClient.staff.setRooms.mutate({ id: member.id, allRooms: values.allRooms, roomIds: values.allRooms ? [] : values.rooms.map((r) => r.id) });
      }
      if (values.apiKeyAuth !== member.apiKeyAuth) await trpcClient.staff.setApiKeyAuth.mutate({ id: member.id, apiKeyAuth: values.apiKeyAuth });
    },
    onSuccess: () => {
      toast.success(t('staff.edit.succeeded', { name: member.name }));
      onClose();
    },
    onError: (error) => form.applyServerErrors(error),
    onSettled: () => void invalidateStaff(queryClient),
  });
  const submit = form.handleSubmit((values) => {
    if (!save.isPending) save.mutate(values);
  });
  const error = (name: keyof typeof errors) => fieldMessage(t, errors[name]?.message);
  const roomsError = fieldMessage(t, errors.rooms?.message ?? errors.rooms?.root?.message ?? (errors as Record<string, { message?: string }>).roomIds?.message);

  return (
    <FormDialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={t('staff.edit.title', { name: member.name })}
      description={[member.mobile, member.email].filter(Boolean).join(' · ')}
      isDirty={form.formState.isDirty}
      isSaving={save.isPending}
      error={shownErrorOf(save.error, EDIT_FIELDS)}
      onSubmit={(event) => void submit(event)}
      submitLabel={t('staff.edit.submit')}
      size="lg"
      initialFocus="staff-edit-name"
      data-testid="staff-edit-dialog"
      submitTestId="staff-edit-submit"
    >
      <ProfileFields
        control={form.control}
        register={form.register}
        idPrefix="staff-edit"
        errors={{ name: error('name'), gender: error('gender'), nationality: error('nationality'), birthDate: error('birthDate') }}
      />
      <AccessFields
        control={form.control}
        idPrefix="staff-edit"
        isLastOwner={member.isLastOwner}
        errors={{ role: error('role'), rooms: roomsError, apiKeyAuth: error('apiKeyAuth') }}
      />
    </FormDialog>
  );
}
