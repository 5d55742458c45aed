import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { FolderTree, Pencil, Plus, Trash2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { toast } from '@/lib/toast';
import { ZRoomGroupInput } from '@console/shared';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { RefreshButton } from '@/components/refresh-button';
import { Button } from '@/components/ui/button';
import { FormDialog } from '@/components/form-dialog';
import { ListPage } from '@/components/list-page';
import { EmptyState } from '@/components/ui/empty-state';
import { FormField, fieldControlProps } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { SkeletonRows } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { appErrorOf } from '@/lib/api-errors';
import { fieldMessage } from '@/lib/field-message';
import { formatNumber } from '@/lib/format';
import { trpc } from '@/lib/trpc';
import type { RouterOutputs } from '@/lib/trpc-types';
import { useAppForm } from '@/lib/use-app-form';
import { hasPermission, useUserInfo } from '@/lib/user-info';
import { IconAction } from '@/components/icon-action';
import { invalidateRoomGroups, roomSetupQueries } from './api';

type RoomGroup = RouterOutputs['roomGroup']['list'][number];

/** The group being added (null) or edited; undefined while the dialog is closed. */
type Editing = RoomGroup | null | undefined;
/** A group whose rooms must go somewhere before it can be deleted. */
type MovingRooms = { group: RoomGroup; roomCount: number };

/** `/room/category`: the hotel's room groups (categories), in the order the API gives them. */
export function RoomGroupsPage() {
  const { t } = useTranslation();
  const user = useUserInfo();
  const canManage = hasPermission(user, 'room.manage');
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<Editing>(undefined);
  const [deleting, setDeleting] = useState<RoomGroup | null>(null);
  const [moving, setMoving] = useState<MovingRooms | null>(null);
  const [moveTo, setMoveTo] = useState<string>('none');

  const list = useQuery(roomSetupQueries.groups());
  const groups = list.data ?? [];

  const afterChange = () => invalidateRoomGroups(queryClient);

  const onDeleted = () => {
    toast.success(t('common.deleted'));
    setDeleting(null);
    setMoving(null);
    void afterChange();
  };
  // The first delete asks the server; a group that still has rooms answers with a question.
  const remove = useMutation(
    trpc.roomGroup.delete.mutationOptions({
      meta: { handledCodes: ['CONFIRMATION_REQUIRED'] },
      onSuccess: onDeleted,
      onError: (error, input) => {
        const app = appErrorOf(error);
        if (app?.code !== 'CONFIRMATION_REQUIRED') return;
        // The group still has rooms: ask where they go, then send the delete again.
        const group = groups.find((g) => g.id === input.id) ?? deleting;
        const roomCount = typeof app.details?.roomCount === 'number' ? app.details.roomCount : (group?.roomCount ?? 0);
        setDeleting(null);
        if (group) {
          setMoveTo('none');
          moveAndRemove.reset();
          setMoving({ group, roomCount });
        }
      },
    }),
  );
  // The delete that says where the rooms go: its failure is shown inside its dialog.
  const moveAndRemove = useMutation(trpc.roomGroup.delete.mutationOptions({ meta: { showsErrors: true }, onSuccess: onDeleted }));

  const moveTargets = moving ? groups.filter((g) => g.id !== moving.group.id) : [];

  return (
    <>
      <ListPage
        title={t('route.roomGroups')}
        actions={
          <>
            <RefreshButton onRefresh={list.refetch} fetching={list.isFetching} />
            {canManage && (
              <Button onClick={() => setEditing(null)} data-testid="add-group">
                <Plus aria-hidden />
                {t('roomSetup.addGroup')}
              </Button>
            )}
          </>
        }
        query={list}
        what={t('roomSetup.groupsWhat')}
        isEmpty={groups.length === 0}
        empty={
          <EmptyState
            icon={FolderTree}
            title={t('roomSetup.groupsEmptyTitle')}
            description={t('roomSetup.groupsEmptyText')}
            action={
              canManage ? (
                <Button onClick={() => setEditing(null)}>
                  <Plus aria-hidden />
                  {t('roomSetup.addGroup')}
                </Button>
              ) : undefined
            }
            data-testid="group-empty"
          />
        }
        skeleton={<SkeletonRows rows={5} label={t('common.loading')} />}
        data-testid="group-list"
      >
        <Table data-testid="group-table">
          <TableHeader>
            <TableRow>
              <TableHead>{t('roomSetup.groupName')}</TableHead>
              <TableHead className="text-end">{t('roomSetup.groupSort')}</TableHead>
              <TableHead className="text-end">{t('roomSetup.roomCount')}</TableHead>
              {canManage && (
                <TableHead>
                  <span className="sr-only">{t('common.actions')}</span>
                </TableHead>
              )}
            </TableRow>
          </TableHeader>
          <TableBody>
            {groups.map((group) => (
              <TableRow key={group.id} data-testid={`group-row-${group.id}`}>
                <TableCell className="font-medium">{group.name}</TableCell>
                <TableCell className="text-end tabular-nums">{formatNumber(group.sort)}</TableCell>
                <TableCell className="text-end tabular-nums">{formatNumber(group.roomCount)}</TableCell>
                {canManage && (
                  <TableCell>
                    <div className="flex justify-end gap-1">
                      <IconAction label={t('roomSetup.editGroup')} onClick={() => setEditing(group)} testId={`edit-group-${group.id}`}>
                        <Pencil className="size-4" />
                      </IconAction>
                      <IconAction label={t('common.delete')} onClick={() => setDeleting(group)} testId={`delete-group-${group.id}`} destructive>
                        <Trash2 className="size-4" />
                      </IconAction>
                    </div>
                  </TableCell>
                )}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </ListPage>

      {editing !== undefined && (
        <GroupDialog key={editing?.id ?? 'new'} group={editing} onClose={() => setEditing(undefined)} onSaved={() => void afterChange()} />
      )}

      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={t('roomSetup.deleteGroupTitle')}
        description={deleting && t('roomSetup.deleteGroupText', { name: deleting.name })}
        confirmLabel={t('common.delete')}
        destructive
        pending={remove.isPending}
        onConfirm={() => deleting && remove.mutate({ id: deleting.id })}
        data-testid="group-delete-confirm"
        confirmTestId="confirm-action"
      />

      <FormDialog
        open={moving !== null}
        onOpenChange={(open) => !open && setMoving(null)}
        title={t('roomSetup.moveRoomsTitle')}
        description={moving && t('roomSetup.moveRoomsText', { name: moving.group.name, number: formatNumber(moving.roomCount) })}
        isDirty={moveTo !== 'none'}
        isSaving={moveAndRemove.isPending}
        error={moveAndRemove.error}
        onSubmit={(event) => {
          event.preventDefault();
          if (moving) moveAndRemove.mutate({ id: moving.group.id, moveRoomsTo: moveTo === 'none' ? 'none' : Number(moveTo) });
        }}
        submitLabel={t('roomSetup.moveAndDelete')}
        submitTestId="move-rooms-confirm"
        data-testid="move-rooms-dialog"
      >
        <div className="grid gap-2">
          <Label htmlFor="move-rooms-target">{t('roomSetup.moveRoomsTo')}</Label>
          <Select value={moveTo} onValueChange={setMoveTo}>
            <SelectTrigger id="move-rooms-target" className="w-full" data-testid="move-rooms-target">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value="none">{t('roomSetup.noGroup')}</SelectItem>
              {moveTargets.map((g) => (
                <SelectItem key={g.id} value={String(g.id)}>
                  {g.name}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
      </FormDialog>
    </>
  );
}

/** Adds a group (group null) or edits one, with the shared rules of ZRoomGroupInput. */
function GroupDialog({ group, onClose, onSaved }: { group: RoomGroup | null; onClose(): void; onSaved(): void }) {
  const { t } = useTranslation();
  const form = useAppForm(ZRoomGroupInput, { name: group?.name ?? '', sort: group ? String(group.sort) : '' });
  const { errors } = form.formState;
  const options = {
    meta: { showsErrors: true },
    onSuccess: () => {
      toast.success(group ? t('roomSetup.groupUpdated') : t('roomSetup.groupCreated'));
      onSaved();
      onClose();
    },
    onError: (error: unknown) => {
      const app = appErrorOf(error);
      // A name already used by another group is said next to the name.
      if (app?.code === 'CONFLICT') form.setError('name', { type: 'server', message: app.message });
      else form.applyServerErrors(error);
    },
  };
  const create = useMutation(trpc.roomGroup.create.mutationOptions(options));
  const update = useMutation(trpc.roomGroup.update.mutationOptions(options));
  const isPending = create.isPending || update.isPending;
  const error = create.error ?? update.error;

  return (
    <FormDialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={group ? t('roomSetup.editGroup') : t('roomSetup.addGroup')}
      description={t('roomSetup.groupFormText')}
      isDirty={form.formState.isDirty}
      isSaving={isPending}
      // A name conflict is said next to the name, not again under the form.
      error={appErrorOf(error)?.code === 'CONFLICT' ? null : error}
      onSubmit={form.handleSubmit((values) => (group ? update.mutate({ ...values, id: group.id }) : create.mutate(values)))}
      submitLabel={t('roomSetup.save')}
      submitTestId="group-submit"
      data-testid="group-dialog"
    >
      <FormField id="group-name" label={t('roomSetup.groupName')} required error={fieldMessage(t, errors.name?.message)}>
        <Input
          autoComplete="off"
          aria-required
          autoFocus
          {...fieldControlProps('group-name', errors.name?.message)}
          {...form.register('name')}
          data-testid="group-name"
        />
      </FormField>
      <FormField id="group-sort" label={t('roomSetup.groupSort')} required hint={t('roomSetup.groupSortHint')} error={fieldMessage(t, errors.sort?.message)}>
        <Input
          type="number"
          inputMode="numeric"
          min={0}
          step={1}
          className="w-40"
          aria-required
          {...fieldControlProps('group-sort', errors.sort?.message, true)}
          {...form.register('sort')}
          data-testid="group-sort"
        />
      </FormField>
    </FormDialog>
  );
}
