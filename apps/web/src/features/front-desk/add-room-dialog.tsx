import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from '@/lib/toast';
import { ZRoomInput } from '@console/shared';
import { FormDialog } from '@/components/form-dialog';
import { RoomGroupSelect } from '@/components/room-group-select';
import { FormField, fieldControlProps } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { fieldMessage } from '@/lib/field-message';
import { trpc } from '@/lib/trpc';
import { useAppForm } from '@/lib/use-app-form';
import { invalidateRoomGroups, invalidateRooms } from './api';

const EMPTY_ROOM = { name: '', groupId: null, remarkName: '', sortOrder: '0' };

/**
 * "Add room" on the board: the essentials; the rest is on the room's settings tab. Mounted while
 * open, so each opening starts from an empty form (in the group the board is filtered on); closing
 * it with something typed asks first.
 */
export function AddRoomDialog({ onClose, defaultGroupId }: { onClose(): void; defaultGroupId?: number }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const form = useAppForm(ZRoomInput, { ...EMPTY_ROOM, groupId: defaultGroupId ?? null });
  const { errors } = form.formState;

  const create = useMutation(
    trpc.room.create.mutationOptions({
      meta: { showsErrors: true },
      onSuccess: (room) => {
        toast.success(t('frontDesk.board.roomCreated', { name: room.name }));
        void invalidateRooms(queryClient);
        void invalidateRoomGroups(queryClient);
        onClose();
      },
      onError: (error) => form.applyServerErrors(error),
    }),
  );

  const nameError = fieldMessage(t, errors.name?.message);
  const groupError = fieldMessage(t, errors.groupId?.message);
  const remarkError = fieldMessage(t, errors.remarkName?.message);
  const sortError = fieldMessage(t, errors.sortOrder?.message);

  return (
    <FormDialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={t('frontDesk.board.addRoomTitle')}
      description={t('frontDesk.board.addRoomDescription')}
      isDirty={form.formState.isDirty}
      isSaving={create.isPending}
      error={create.error}
      onSubmit={form.handleSubmit((values) => create.mutate(values))}
      submitLabel={t('frontDesk.board.addRoomSubmit')}
      submitTestId="add-room-submit"
      data-testid="add-room-dialog"
    >
      <div className="grid gap-4">
        <FormField id="add-room-name" label={t('frontDesk.board.roomName')} error={nameError} required>
          <Input
            {...fieldControlProps('add-room-name', nameError)}
            aria-required
            autoFocus
            maxLength={32}
            {...form.register('name')}
            data-testid="add-room-name"
          />
        </FormField>
        <FormField id="add-room-group" label={t('frontDesk.board.group')} error={groupError}>
          <Controller
            control={form.control}
            name="groupId"
            render={({ field }) => (
              <RoomGroupSelect
                id="add-room-group"
                value={typeof field.value === 'number' ? field.value : null}
                onChange={field.onChange}
                invalid={Boolean(groupError)}
              />
            )}
          />
        </FormField>
        <FormField id="add-room-remark" label={t('frontDesk.board.remarkName')} error={remarkError}>
          <Input {...fieldControlProps('add-room-remark', remarkError)} maxLength={64} {...form.register('remarkName')} />
        </FormField>
        <FormField id="add-room-sort" label={t('frontDesk.board.sortOrder')} hint={t('frontDesk.board.sortOrderHint')} error={sortError}>
          <Input {...fieldControlProps('add-room-sort', sortError, true)} inputMode="numeric" {...form.register('sortOrder')} />
        </FormField>
      </div>
    </FormDialog>
  );
}
