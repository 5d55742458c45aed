import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { ZRoomInput } from '@console/shared';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { FormField, fieldControlProps } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { fieldMessage } from '@/lib/field-message';
import { trpc } from '@/lib/trpc';
import { useAppForm } from '@/lib/use-app-form';
import { RoomGroupSelect } from './room-group-select';

const EMPTY_ROOM = { name: '', groupId: null, remarkName: '', sortOrder: '0' };

/**
 * "Add room" on the board: the essentials; the rest is on the room's settings tab. Mounted while
 * open, so each opening starts from an empty form (in the group the board is filtered on).
 */
export function AddRoomDialog({ onClose, defaultGroupId }: { onClose(): void; defaultGroupId?: number }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const form = useAppForm(ZRoomInput, { ...EMPTY_ROOM, groupId: defaultGroupId ?? null });
  const { errors } = form.formState;

  const create = useMutation(
    trpc.room.create.mutationOptions({
      meta: { handledCodes: ['VALIDATION'] },
      onSuccess: (room) => {
        toast.success(t('frontDesk.board.roomCreated', { name: room.name }));
        void queryClient.invalidateQueries({ queryKey: trpc.room.pathKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.roomGroup.pathKey() });
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
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent closeLabel={t('common.close')} data-testid="add-room-dialog">
        <DialogHeader>
          <DialogTitle>{t('frontDesk.board.addRoomTitle')}</DialogTitle>
          <DialogDescription>{t('frontDesk.board.addRoomDescription')}</DialogDescription>
        </DialogHeader>
        <form onSubmit={form.handleSubmit((values) => create.mutate(values))} noValidate className="grid gap-4">
          <FormField id="add-room-name" label={t('frontDesk.board.roomName')} error={nameError} required>
            <Input {...fieldControlProps('add-room-name', nameError)} aria-required autoFocus maxLength={32} {...form.register('name')} data-testid="add-room-name" />
          </FormField>
          <FormField id="add-room-group" label={t('frontDesk.board.group')} error={groupError}>
            <Controller
              control={form.control}
              name="groupId"
              render={({ field }) => <RoomGroupSelect id="add-room-group" value={typeof field.value === 'number' ? field.value : null} onChange={field.onChange} invalid={Boolean(groupError)} />}
            />
          </FormField>
          <FormField id="add-room-remark" label={t('frontDesk.board.remarkName')} error={remarkError}>
            <Input {...fieldControlProps('add-room-remark', remarkError)} maxLength={64} {...form.register('remarkName')} />
          </FormField>
          <FormField id="add-room-sort" label={t('frontDesk.board.sortOrder')} hint={t('frontDesk.board.sortOrderHint')} error={sortError}>
            <Input {...fieldControlProps('add-room-sort', sortError, true)} inputMode="numeric" {...form.register('sortOrder')} />
          </FormField>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" disabled={create.isPending} data-testid="add-room-submit">
              {create.isPending && <Spinner />}
              {t('frontDesk.board.addRoomSubmit')}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
