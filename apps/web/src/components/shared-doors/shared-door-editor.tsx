import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { SHARED_DOOR_KINDS, type TSharedDoorKind } from '@console/shared';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { NativeSelect, NativeSelectOption } from '@/components/ui/native-select';
import { toast } from '@/lib/toast';
import { invalidateSharedDoors, sharedQueries } from '@/lib/queries';
import { trpcClient } from '@/lib/trpc';
import { hasPermission, useUserInfo } from '@/lib/user-info';

/**
 * The lock pages' "shared door" section (issue 20 §5, docs/shared-doors.md): a lock that is no
 * room's door made an entrance, lift, gym, parking or other door, with the room groups and rooms it
 * serves; or made a plain lock again. The stays of the rooms served get their codes and faces there.
 */
export function SharedDoorEditor() {
  const { t } = useTranslation();
  const canManage = hasPermission(useUserInfo(), 'lock.accounts');
  const queryClient = useQueryClient();
  const doors = useQuery(sharedQueries.sharedDoors());
  const locks = useQuery(sharedQueries.sharedDoorLocks(canManage));
  const rooms = useQuery(sharedQueries.sharedDoorRooms(canManage));
  const groups = useQuery(sharedQueries.sharedDoorGroups(canManage));
  const [lockId, setLockId] = useState<number | null>(null);
  const [kind, setKind] = useState<TSharedDoorKind>('entrance');
  const [roomIds, setRoomIds] = useState<number[]>([]);
  const [groupIds, setGroupIds] = useState<number[]>([]);
  const changed = () => void invalidateSharedDoors(queryClient);
  const save = useMutation({
    mutationFn: () => trpcClient.sharedDoor.set.mutate({ lockId: lockId!, kind, roomIds, groupIds }),
    onSuccess: () => {
      toast.success(t('sharedDoors.saved'));
      changed();
    },
  });
  const unset = useMutation({
    mutationFn: (id: number) => trpcClient.sharedDoor.unset.mutate({ lockId: id }),
    onSuccess: () => {
      toast.success(t('sharedDoors.removed'));
      changed();
    },
  });
  const edit = (id: number) => {
    const door = doors.data?.items.find((d) => d.lockId === id);
    setLockId(id);
    setKind(door?.kind ?? 'entrance');
    setRoomIds(door?.rooms.map((r) => r.id) ?? []);
    setGroupIds(door?.groups.map((g) => g.id) ?? []);
  };
  const toggle = (list: number[], id: number) => (list.includes(id) ? list.filter((x) => x !== id) : [...list, id]);
  const candidates = [
    ...(doors.data?.items.map((d) => ({ id: d.lockId, name: d.name })) ?? []),
    ...(locks.data?.items.filter((l) => !doors.data?.items.some((d) => d.lockId === l.id)).map((l) => ({ id: l.id, name: l.alias || l.name })) ?? []),
  ];
  return (
    <Card data-testid="shared-door-editor">
      <CardHeader>
        <CardTitle>{t('sharedDoors.section')}</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-3 text-sm">
        {doors.data?.items.length ? (
          <ul className="grid gap-1">
            {doors.data.items.map((door) => (
              <li key={door.lockId} className="flex flex-wrap items-center gap-2" data-testid={`shared-door-row-${door.lockId}`}>
                <span className="font-medium">{door.name}</span>
                <span>{t(`sharedDoors.kinds.${door.kind}`)}</span>
                <span className="text-muted-foreground">
                  {[...door.groups.map((g) => g.name), ...door.rooms.map((r) => r.name)].join(', ') || t('sharedDoors.none')}
                </span>
                {canManage && (
                  <>
                    <Button size="sm" variant="outline" onClick={() => edit(door.lockId)}>
                      {t('sharedDoors.save')}
                    </Button>
                    <Button size="sm" variant="ghost" disabled={unset.isPending} onClick={() => unset.mutate(door.lockId)}>
                      {t('sharedDoors.unset')}
                    </Button>
                  </>
                )}
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-muted-foreground">{t('sharedDoors.notShared')}</p>
        )}
        {canManage && (
          <div className="grid gap-2">
            <div className="flex flex-wrap gap-2">
              <NativeSelect
                aria-label={t('sharedDoors.section')}
                value={lockId === null ? '' : String(lockId)}
                onChange={(e) => (e.target.value ? edit(Number(e.target.value)) : setLockId(null))}
                data-testid="shared-door-lock"
              >
                <NativeSelectOption value="">{t('sharedDoors.make')}</NativeSelectOption>
                {candidates.map((c) => (
                  <NativeSelectOption key={c.id} value={String(c.id)}>
                    {c.name}
                  </NativeSelectOption>
                ))}
              </NativeSelect>
              <NativeSelect
                aria-label={t('sharedDoors.kind')}
                value={kind}
                onChange={(e) => setKind(e.target.value as TSharedDoorKind)}
                data-testid="shared-door-kind"
              >
                {SHARED_DOOR_KINDS.map((k) => (
                  <NativeSelectOption key={k} value={k}>
                    {t(`sharedDoors.kinds.${k}`)}
                  </NativeSelectOption>
                ))}
              </NativeSelect>
            </div>
            {lockId !== null && (
              <>
                <fieldset className="flex flex-wrap gap-3">
                  <legend className="text-muted-foreground mb-1">{t('sharedDoors.groups')}</legend>
                  {groups.data?.map((g) => (
                    <label key={g.id} className="flex items-center gap-1">
                      <input type="checkbox" checked={groupIds.includes(g.id)} onChange={() => setGroupIds(toggle(groupIds, g.id))} />
                      {g.name}
                    </label>
                  ))}
                </fieldset>
                <fieldset className="flex flex-wrap gap-3">
                  <legend className="text-muted-foreground mb-1">{t('sharedDoors.rooms')}</legend>
                  {rooms.data?.items.map((r) => (
                    <label key={r.id} className="flex items-center gap-1">
                      <input type="checkbox" checked={roomIds.includes(r.id)} onChange={() => setRoomIds(toggle(roomIds, r.id))} />
                      {r.name}
                    </label>
                  ))}
                </fieldset>
                <div>
                  <Button onClick={() => save.mutate()} disabled={save.isPending} data-testid="shared-door-save">
                    {t('sharedDoors.save')}
                  </Button>
                </div>
              </>
            )}
          </div>
        )}
      </CardContent>
    </Card>
  );
}
