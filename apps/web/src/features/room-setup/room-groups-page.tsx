import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { FolderTree, Pencil, Plus, Trash2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { ZRoomGroupInput } from '@console/shared';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { RefreshButton } from '@/components/refresh-button';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { EmptyState } from '@/components/ui/empty-state';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { SkeletonRows } from '@/components/ui/skeleton';
import { Spinner } from '@/components/ui/spinner';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { appErrorOf } from '@/lib/api-errors';
import { fieldMessage } from '@/lib/field-message';
import { formatNumber } from '@/lib/format';
import { trpc } from '@/lib/trpc';
import type { RouterOutputs } from '@/lib/trpc-types';
import { useAppForm } from '@/lib/use-app-form';
import { hasPermission, useUserInfo } from '@/lib/user-info';
import { IconAction } from './icon-action';

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

  const list = useQuery(trpc.roomGroup.list.queryOptions());
  const groups = list.data ?? [];

  const afterChange = () =>
    Promise.all([queryClient.invalidateQueries({ queryKey: trpc.roomGroup.pathKey() }), queryClient.invalidateQueries({ queryKey: trpc.room.pathKey() })]);

  const remove = useMutation(
    trpc.roomGroup.delete.mutationOptions({
      meta: { handledCodes: ['CONFIRMATION_REQUIRED'] },
      onSuccess: () => {
        toast.success(t('common.deleted'));
        setDeleting(null);
        setMoving(null);
        void afterChange();
      },
      onError: (error, input) => {
        const app = appErrorOf(error);
        if (app?.code !== 'CONFIRMATION_REQUIRED') return;
        // The group still has rooms: ask where they go, then send the delete again.
        const group = groups.find((g) => g.id === input.id) ?? deleting;
        const roomCount = typeof app.details?.roomCount === 'number' ? app.details.roomCount : (group?.roomCount ?? 0);
        setDeleting(null);
        if (group) {
          setMoveTo('none');
          setMoving({ group, roomCount });
        }
      },
    }),
  );

  const moveTargets = moving ? groups.filter((g) => g.id !== moving.group.id) : [];

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-xl font-semibold">{t('route.roomGroups')}</h1>
        <div className="flex items-center gap-2">
          {list.isFetching && !list.isLoading && <Spinner className="text-muted-foreground" />}
          <RefreshButton onRefresh={list.refetch} fetching={list.isFetching} />
          {canManage && (
            <Button onClick={() => setEditing(null)} data-testid="add-group">
              <Plus aria-hidden />
              {t('roomSetup.addGroup')}
            </Button>
          )}
        </div>
      </div>

      <Card className="gap-0 p-0">
        {list.isLoading ? (
          <SkeletonRows rows={5} label={t('common.loading')} />
        ) : groups.length === 0 ? (
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
        ) : (
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
        )}
      </Card>

      <Dialog open={editing !== undefined} onOpenChange={(open) => !open && setEditing(undefined)}>
        <DialogContent closeLabel={t('common.close')} className="sm:max-w-md" data-testid="group-dialog">
          {editing !== undefined && <GroupForm key={editing?.id ?? 'new'} group={editing} onDone={() => setEditing(undefined)} onSaved={() => void afterChange()} />}
        </DialogContent>
      </Dialog>

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

      <Dialog open={moving !== null} onOpenChange={(open) => !open && !remove.isPending && setMoving(null)}>
        <DialogContent closeLabel={t('common.close')} className="sm:max-w-md" data-testid="move-rooms-dialog">
          <DialogHeader>
            <DialogTitle>{t('roomSetup.moveRoomsTitle')}</DialogTitle>
            <DialogDescription>{moving && t('roomSetup.moveRoomsText', { name: moving.group.name, number: formatNumber(moving.roomCount) })}</DialogDescription>
          </DialogHeader>
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
          <DialogFooter>
            <Button variant="outline" onClick={() => setMoving(null)} disabled={remove.isPending}>
              {t('common.cancel')}
            </Button>
            <Button
              variant="destructive"
              disabled={remove.isPending}
              onClick={() => {
                if (moving) remove.mutate({ id: moving.group.id, moveRoomsTo: moveTo === 'none' ? 'none' : Number(moveTo) });
              }}
              data-testid="move-rooms-confirm"
            >
              {remove.isPending && <Spinner />}
              {t('roomSetup.moveAndDelete')}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </div>
  );
}

/** Adds a group (group null) or edits one, with the shared rules of ZRoomGroupInput. */
function GroupForm({ group, onDone, onSaved }: { group: RoomGroup | null; onDone(): void; onSaved(): void }) {
  const { t } = useTranslation();
  const form = useAppForm(ZRoomGroupInput, { name: group?.name ?? '', sort: group ? String(group.sort) : '' });
  const { errors } = form.formState;
  const options = {
    onSuccess: () => {
      toast.success(group ? t('roomSetup.groupUpdated') : t('roomSetup.groupCreated'));
      onSaved();
      onDone();
    },
    onError: (error: unknown) => {
      const app = appErrorOf(error);
      // A name already used by another group is said next to the name.
      if (app?.code === 'CONFLICT') form.setError('name', { type: 'server', message: app.message });
      else form.applyServerErrors(error);
    },
  };
  const create = useMutation(trpc.roomGroup.create.mutationOptions({ ...options, meta: { handledCodes: ['VALIDATION', 'CONFLICT'] } }));
  const update = useMutation(trpc.roomGroup.update.mutationOptions({ ...options, meta: { handledCodes: ['VALIDATION', 'CONFLICT'] } }));
  const isPending = create.isPending || update.isPending;

  return (
    <form
      onSubmit={form.handleSubmit((values) => (group ? update.mutate({ ...values, id: group.id }) : create.mutate(values)))}
      noValidate
      className="grid gap-4"
      data-testid="group-form"
    >
      <DialogHeader>
        <DialogTitle>{group ? t('roomSetup.editGroup') : t('roomSetup.addGroup')}</DialogTitle>
        <DialogDescription>{t('roomSetup.groupFormText')}</DialogDescription>
      </DialogHeader>
      <FormField id="group-name" label={t('roomSetup.groupName')} required error={fieldMessage(t, errors.name?.message)}>
        <Input
          id="group-name"
          autoComplete="off"
          aria-required
          aria-invalid={errors.name ? true : undefined}
          aria-describedby={errors.name ? 'group-name-error' : undefined}
          autoFocus
          {...form.register('name')}
        />
      </FormField>
      <FormField id="group-sort" label={t('roomSetup.groupSort')} required hint={t('roomSetup.groupSortHint')} error={fieldMessage(t, errors.sort?.message)}>
        <Input
          id="group-sort"
          type="number"
          inputMode="numeric"
          min={0}
          step={1}
          className="w-40"
          aria-required
          aria-invalid={errors.sort ? true : undefined}
          aria-describedby={errors.sort ? 'group-sort-hint group-sort-error' : 'group-sort-hint'}
          {...form.register('sort')}
        />
      </FormField>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onDone}>
          {t('common.cancel')}
        </Button>
        <Button type="submit" id="group-submit" data-testid="group-submit" disabled={isPending}>
          {isPending && <Spinner />}
          {t('roomSetup.save')}
        </Button>
      </DialogFooter>
    </form>
  );
}
