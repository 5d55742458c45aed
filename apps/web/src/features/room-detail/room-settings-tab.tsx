import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { Info, Trash2 } from 'lucide-react';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from '@/lib/toast';
import { LIMITS, ZRoomUpdateInput } from '@console/shared';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { FormError } from '@/components/form-error';
import { SaveBar } from '@/components/save-bar';
import { useUnsavedChanges } from '@/components/unsaved-changes';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField, fieldControlProps, fieldHintId } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';
import { appErrorOf } from '@/lib/api-errors';
import { fieldMessage } from '@/lib/field-message';
import { trpc } from '@/lib/trpc';
import { invalidateRoomDeleted, invalidateRoomSettings, roomDetailQueries } from './api';
import { useAppForm } from '@/lib/use-app-form';
import { hasPermission, useUserInfo } from '@/lib/user-info';
import type { RoomDetail } from './room-detail-header';
import { RoomGroupSelect } from '@/components/room-group-select';
import { RoomPictureField } from './room-picture-field';
import { LockBattery } from '../lock-panel/lock-battery';
import { RoomLockPicker } from '../lock-panel/room-lock-picker';

const MAX = LIMITS.roomFieldMax;

/** A refusal about the form's fields is shown next to them, not again in the save bar. */
const fieldsShowError = (error: unknown) => {
  const app = appErrorOf(error);
  return app?.code === 'VALIDATION' && Object.keys(app.fields ?? {}).length > 0;
};

function formValues(room: RoomDetail) {
  return {
    id: room.id,
    name: room.name,
    groupId: room.groupId,
    picture: room.picture,
    remarkName: room.remarkName,
    description: room.description,
    lockNotice: room.lockNotice,
    notice: room.notice,
    lockId: room.lockId ?? '',
    bluetoothName: room.bluetoothName ?? '',
    macId: room.macId ?? '',
    sortOrder: String(room.sortOrder),
  };
}

/**
 * Everything about the room itself (ZRoomUpdateInput), and deleting it. For members who manage
 * rooms. Unsaved edits are kept from being lost: leaving the tab or the page asks first. The room's
 * lock is picked among the hotel's locks (its lock accounts' locks; "no lock" unpairs); the lock's
 * battery is shown as the lock reported it; nobody types it.
 */
export function RoomSettingsTab({ room }: { room: RoomDetail }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const form = useAppForm(ZRoomUpdateInput, formValues(room));
  // The room's lock by its name (as the lock panel reads it), and whether the hotel has any lock to pick.
  const currentLock = useQuery(roomDetailQueries.roomLock(room));
  const anyLock = useQuery(roomDetailQueries.anyLock());
  const hasNoLocks = anyLock.data?.total === 0 && room.lockId === null;
  const { errors, isDirty } = form.formState;
  useUnsavedChanges(isDirty);

  const update = useMutation(
    trpc.room.update.mutationOptions({
      meta: { showsErrors: true },
      onSuccess: (saved) => {
        toast.success(t('frontDesk.detail.settingsSaved'));
        form.reset(formValues(saved));
        // Its lock may have changed: the lock panel, the hotel's lock list.
        invalidateRoomSettings(queryClient);
      },
      onError: (error) => form.applyServerErrors(error),
    }),
  );

  const error = (message: string | undefined) => fieldMessage(t, message);
  const text = (
    name: 'name' | 'remarkName' | 'bluetoothName' | 'macId' | 'sortOrder',
    options: { label: string; hint?: string; required?: boolean; maxLength?: number; inputMode?: 'numeric'; ltr?: boolean },
  ) => {
    const id = `room-${name}`;
    const message = error(errors[name]?.message);
    return (
      <FormField id={id} label={options.label} hint={options.hint} error={message} required={options.required}>
        <Input
          {...fieldControlProps(id, message, Boolean(options.hint))}
          aria-required={options.required || undefined}
          maxLength={options.maxLength}
          inputMode={options.inputMode}
          dir={options.ltr ? 'ltr' : undefined}
          {...form.register(name)}
          data-testid={id}
        />
      </FormField>
    );
  };
  const longText = (name: 'description' | 'lockNotice' | 'notice', label: string, maxLength: number, hint?: string) => {
    const id = `room-${name}`;
    const message = error(errors[name]?.message);
    return (
      <FormField id={id} label={label} hint={hint} error={message} className="md:col-span-2">
        <Textarea {...fieldControlProps(id, message, Boolean(hint))} maxLength={maxLength} rows={3} {...form.register(name)} data-testid={id} />
      </FormField>
    );
  };

  const pictureError = error(errors.picture?.message);
  const lockError = error(errors.lockId?.message);
  const groupError = error(errors.groupId?.message);

  return (
    <div className="space-y-4">
      <Card>
        <CardHeader>
          <CardTitle>{t('frontDesk.detail.settingsTitle')}</CardTitle>
        </CardHeader>
        <CardContent>
          <form
            onSubmit={form.handleSubmit((values) => update.mutate(values))}
            noValidate
            className="grid gap-x-4 gap-y-2 md:grid-cols-2"
            data-testid="room-settings-form"
          >
            {text('name', { label: t('frontDesk.board.roomName'), required: true, maxLength: MAX.name })}
            <FormField id="room-group" label={t('frontDesk.board.group')} error={groupError}>
              <Controller
                control={form.control}
                name="groupId"
                render={({ field }) => (
                  <RoomGroupSelect
                    id="room-group"
                    value={typeof field.value === 'number' ? field.value : null}
                    onChange={field.onChange}
                    invalid={Boolean(groupError)}
                  />
                )}
              />
            </FormField>
            <FormField
              id="room-picture"
              label={t('frontDesk.detail.picture')}
              hint={t('frontDesk.detail.pictureHint')}
              error={pictureError}
              className="md:col-span-2"
            >
              <Controller
                control={form.control}
                name="picture"
                render={({ field }) => (
                  <RoomPictureField
                    id="room-picture"
                    value={typeof field.value === 'string' && field.value ? field.value : null}
                    onChange={(url) => form.setValue('picture', url, { shouldDirty: true, shouldValidate: true })}
                    describedBy={fieldHintId('room-picture')}
                  />
                )}
              />
            </FormField>
            {text('remarkName', { label: t('frontDesk.board.remarkName'), maxLength: MAX.remarkName })}
            {text('sortOrder', { label: t('frontDesk.board.sortOrder'), hint: t('frontDesk.board.sortOrderHint'), inputMode: 'numeric' })}
            {longText('description', t('frontDesk.detail.description'), MAX.description)}
            {longText('lockNotice', t('frontDesk.detail.lockNotice'), MAX.lockNotice, t('frontDesk.detail.lockNoticeHint'))}
            {longText('notice', t('frontDesk.detail.notice'), MAX.notice)}
            <FormField id="room-lockId" label={t('lockAccounts.roomLock.label')} hint={t('lockAccounts.roomLock.hint')} error={lockError}>
              <Controller
                control={form.control}
                name="lockId"
                render={({ field }) => (
                  <RoomLockPicker
                    id="room-lockId"
                    value={typeof field.value === 'string' ? field.value : ''}
                    onChange={(lockId) => form.setValue('lockId', lockId, { shouldDirty: true, shouldValidate: true })}
                    current={room.lockId ? { lockId: room.lockId, name: currentLock.data?.lockId === room.lockId ? currentLock.data.name : '' } : null}
                    invalid={Boolean(lockError)}
                    describedBy={fieldControlProps('room-lockId', lockError, true)['aria-describedby']}
                    data-testid="room-lockId"
                  />
                )}
              />
              {hasNoLocks && <NoLocksYet />}
            </FormField>
            {text('bluetoothName', { label: t('frontDesk.detail.bluetoothName'), maxLength: MAX.bluetoothName, ltr: true })}
            {text('macId', { label: t('frontDesk.detail.macId'), hint: t('frontDesk.detail.macIdHint'), maxLength: MAX.macId, ltr: true })}
            <div className="grid content-start gap-2" data-testid="room-lock-power">
              <span className="text-sm leading-none font-medium">{t('frontDesk.detail.lockPower')}</span>
              <div className="flex h-9 items-center gap-2 text-sm">
                {room.lockPower === null ? (
                  <span className="text-muted-foreground">{t('frontDesk.detail.lockPowerNone')}</span>
                ) : (
                  <LockBattery power={room.lockPower} className="text-sm" />
                )}
              </div>
              <p className="text-muted-foreground text-sm">{t('frontDesk.detail.lockPowerHint')}</p>
            </div>
            <SaveBar
              className="md:col-span-2"
              isDirty={isDirty}
              isSaving={update.isPending}
              error={fieldsShowError(update.error) ? null : update.error}
              onDiscard={() => form.reset()}
              saveLabel={t('frontDesk.detail.save')}
              saveTestId="room-settings-save"
            />
          </form>
        </CardContent>
      </Card>
      <DeleteRoomCard room={room} />
    </div>
  );
}

/** The hotel has no locks to pick: they come from its lock accounts (the Lock accounts page, for those who may see it). */
function NoLocksYet() {
  const { t } = useTranslation();
  const canManageAccounts = hasPermission(useUserInfo(), 'lock.accounts');
  return (
    <p role="note" className="bg-muted/50 text-muted-foreground flex items-start gap-2 rounded-md border px-3 py-2 text-sm" data-testid="room-no-locks">
      <Info className="mt-0.5 size-4 shrink-0" aria-hidden />
      <span>
        {canManageAccounts ? t('lockAccounts.roomLock.noLocksYet') : t('lockAccounts.roomLock.noLocksYetAsk')}{' '}
        {canManageAccounts && (
          <Link
            to="/lockAccounts"
            className="text-primary focus-visible:ring-ring font-medium underline-offset-4 outline-none hover:underline focus-visible:ring-2"
            data-testid="room-no-locks-link"
          >
            {t('lockAccounts.openPage')}
          </Link>
        )}
      </span>
    </p>
  );
}

function DeleteRoomCard({ room }: { room: RoomDetail }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const goTo = useNavigate();
  const [isConfirming, setIsConfirming] = useState(false);
  const remove = useMutation(
    trpc.room.delete.mutationOptions({
      meta: { showsErrors: true },
      onSuccess: async () => {
        toast.success(t('common.deleted'));
        setIsConfirming(false);
        // Leave first: refreshing the deleted room's own query would only report it missing.
        await goTo({ to: '/room' });
        invalidateRoomDeleted(queryClient);
      },
    }),
  );
  return (
    <Card className="border-destructive/40">
      <CardHeader>
        <CardTitle>{t('frontDesk.detail.deleteRoom')}</CardTitle>
        <CardDescription>{t('frontDesk.detail.deleteRoomText')}</CardDescription>
      </CardHeader>
      <CardContent>
        <Button variant="destructive" onClick={() => setIsConfirming(true)} data-testid="delete-room">
          <Trash2 aria-hidden />
          {t('frontDesk.detail.deleteRoom')}
        </Button>
      </CardContent>
      <ConfirmDialog
        open={isConfirming}
        onOpenChange={(open) => {
          setIsConfirming(open);
          if (!open) remove.reset();
        }}
        title={t('frontDesk.detail.deleteTitle', { name: room.name })}
        description={t('frontDesk.detail.deleteConfirmText')}
        confirmLabel={t('common.delete')}
        destructive
        pending={remove.isPending}
        onConfirm={() => remove.mutate({ roomId: room.id })}
        data-testid="delete-room-confirm"
        confirmTestId="confirm-delete-room"
      >
        {/* Why it was refused (a guest still in the room, for example), in the prompt. */}
        <FormError error={remove.error} />
      </ConfirmDialog>
    </Card>
  );
}
