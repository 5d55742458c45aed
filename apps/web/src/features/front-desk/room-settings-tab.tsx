import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { Save, Trash2, Undo2 } from 'lucide-react';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { ZRoomUpdateInput } from '@console/shared';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField, fieldControlProps, fieldHintId } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { Textarea } from '@/components/ui/textarea';
import { fieldMessage } from '@/lib/field-message';
import { trpc } from '@/lib/trpc';
import { useAppForm } from '@/lib/use-app-form';
import type { RoomDetail } from './room-detail-header';
import { RoomGroupSelect } from './room-group-select';
import { RoomPictureField } from './room-picture-field';

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
    lockPower: room.lockPower === null ? '' : String(room.lockPower),
    macId: room.macId ?? '',
    sortOrder: String(room.sortOrder),
  };
}

/** Everything about the room itself (ZRoomUpdateInput), and deleting it. For members who manage rooms. */
export function RoomSettingsTab({ room }: { room: RoomDetail }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const form = useAppForm(ZRoomUpdateInput, formValues(room));
  const { errors, isDirty } = form.formState;

  const update = useMutation(
    trpc.room.update.mutationOptions({
      meta: { handledCodes: ['VALIDATION'] },
      onSuccess: (saved) => {
        toast.success(t('frontDesk.detail.settingsSaved'));
        form.reset(formValues(saved));
        void queryClient.invalidateQueries({ queryKey: trpc.room.pathKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.roomGroup.pathKey() });
      },
      onError: (error) => form.applyServerErrors(error),
    }),
  );

  const error = (message: string | undefined) => fieldMessage(t, message);
  const text = (name: 'name' | 'remarkName' | 'lockId' | 'bluetoothName' | 'lockPower' | 'macId' | 'sortOrder', options: { label: string; hint?: string; required?: boolean; maxLength?: number; inputMode?: 'numeric'; ltr?: boolean }) => {
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
  const groupError = error(errors.groupId?.message);

  return (
    <div className="space-y-4">
      <Card>
        <CardHeader>
          <CardTitle>{t('frontDesk.detail.settingsTitle')}</CardTitle>
        </CardHeader>
        <CardContent>
          <form onSubmit={form.handleSubmit((values) => update.mutate(values))} noValidate className="grid gap-4 md:grid-cols-2" data-testid="room-settings-form">
            {text('name', { label: t('frontDesk.board.roomName'), required: true, maxLength: 32 })}
            <FormField id="room-group" label={t('frontDesk.board.group')} error={groupError}>
              <Controller
                control={form.control}
                name="groupId"
                render={({ field }) => <RoomGroupSelect id="room-group" value={typeof field.value === 'number' ? field.value : null} onChange={field.onChange} invalid={Boolean(groupError)} />}
              />
            </FormField>
            <FormField id="room-picture" label={t('frontDesk.detail.picture')} hint={t('frontDesk.detail.pictureHint')} error={pictureError} className="md:col-span-2">
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
            {text('remarkName', { label: t('frontDesk.board.remarkName'), maxLength: 64 })}
            {text('sortOrder', { label: t('frontDesk.board.sortOrder'), hint: t('frontDesk.board.sortOrderHint'), inputMode: 'numeric' })}
            {longText('description', t('frontDesk.detail.description'), 1000)}
            {longText('lockNotice', t('frontDesk.detail.lockNotice'), 200, t('frontDesk.detail.lockNoticeHint'))}
            {longText('notice', t('frontDesk.detail.notice'), 500)}
            {text('lockId', { label: t('frontDesk.detail.lockId'), maxLength: 64, ltr: true })}
            {text('bluetoothName', { label: t('frontDesk.detail.bluetoothName'), maxLength: 64, ltr: true })}
            {text('lockPower', { label: t('frontDesk.detail.lockPower'), hint: t('frontDesk.detail.lockPowerHint'), inputMode: 'numeric' })}
            {text('macId', { label: t('frontDesk.detail.macId'), hint: t('frontDesk.detail.macIdHint'), maxLength: 17, ltr: true })}
            <div className="flex flex-wrap gap-2 md:col-span-2">
              <Button type="submit" disabled={update.isPending} data-testid="room-settings-save">
                {update.isPending ? <Spinner /> : <Save aria-hidden />}
                {t('frontDesk.detail.save')}
              </Button>
              <Button type="button" variant="outline" disabled={!isDirty || update.isPending} onClick={() => form.reset()}>
                <Undo2 aria-hidden />
                {t('frontDesk.detail.discardChanges')}
              </Button>
            </div>
          </form>
        </CardContent>
      </Card>
      <DeleteRoomCard room={room} />
    </div>
  );
}

function DeleteRoomCard({ room }: { room: RoomDetail }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const goTo = useNavigate();
  const [isConfirming, setIsConfirming] = useState(false);
  const remove = useMutation(
    trpc.room.delete.mutationOptions({
      onSuccess: async () => {
        toast.success(t('common.deleted'));
        setIsConfirming(false);
        // Leave first: refreshing the deleted room's own query would only report it missing.
        await goTo({ to: '/room' });
        void queryClient.invalidateQueries({ queryKey: trpc.room.pathKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.roomGroup.pathKey() });
      },
      // The global handler shows why (a guest still in the room, for example).
      onError: () => setIsConfirming(false),
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
        onOpenChange={setIsConfirming}
        title={t('frontDesk.detail.deleteTitle', { name: room.name })}
        description={t('frontDesk.detail.deleteConfirmText')}
        confirmLabel={t('common.delete')}
        destructive
        pending={remove.isPending}
        onConfirm={() => remove.mutate({ id: room.id })}
        data-testid="delete-room-confirm"
        confirmTestId="confirm-delete-room"
      />
    </Card>
  );
}
