import { useEffect, useState } from 'react';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { ZApplyPriceTemplateInput } from '@console/shared';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { SearchInput } from '@/components/search-input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { Spinner } from '@/components/ui/spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { appErrorOf } from '@/lib/api-errors';
import { fieldMessage } from '@/lib/field-message';
import { formatNumber } from '@/lib/format';
import { trpc } from '@/lib/trpc';
import type { PriceTemplate } from './price-template-form';

type Target = 'group' | 'rooms';

/** Gives the template's prices to every room of a group, or to rooms chosen in a searchable list. */
export function ApplyTemplateForm({ template, onDone, onApplied }: { template: PriceTemplate; onDone(): void; onApplied(): void }) {
  const { t } = useTranslation();
  const [target, setTarget] = useState<Target>('group');
  const [groupId, setGroupId] = useState<number | undefined>();
  const [chosen, setChosen] = useState<Map<number, string>>(() => new Map());
  const [searchText, setSearchText] = useState('');
  const [roomSearch, setRoomSearch] = useState('');
  const [error, setError] = useState<string | undefined>();

  // The room list is searched on the server after a short pause.
  useEffect(() => {
    const timer = setTimeout(() => setRoomSearch(searchText.trim()), 300);
    return () => clearTimeout(timer);
  }, [searchText]);

  const groups = useQuery(trpc.roomGroup.list.queryOptions());
  const rooms = useQuery(trpc.room.list.queryOptions({ pageSize: 100, sort: 'name_asc', search: roomSearch || undefined }, { placeholderData: keepPreviousData, enabled: target === 'rooms' }));
  const shown = rooms.data?.items ?? [];
  const allShownChosen = shown.length > 0 && shown.every((r) => chosen.has(r.id));
  const someShownChosen = shown.some((r) => chosen.has(r.id));

  const apply = useMutation(
    trpc.price.applyTemplate.mutationOptions({
      meta: { handledCodes: ['VALIDATION'] },
      onSuccess: (result) => {
        toast.success(t('roomSetup.templateApplied', { name: template.name, number: formatNumber(result.rooms) }));
        onApplied();
        onDone();
      },
      onError: (failure) => {
        // Only VALIDATION reaches here unshown; its message is put under the targets.
        const app = appErrorOf(failure);
        if (app?.code === 'VALIDATION') setError(app.message);
      },
    }),
  );

  const toggle = (id: number, name: string, on: boolean) =>
    setChosen((prev) => {
      const next = new Map(prev);
      if (on) next.set(id, name);
      else next.delete(id);
      return next;
    });

  const toggleShown = (on: boolean) =>
    setChosen((prev) => {
      const next = new Map(prev);
      for (const room of shown) {
        if (on) next.set(room.id, room.name);
        else next.delete(room.id);
      }
      return next;
    });

  const submit = () => {
    const input = target === 'group' ? { templateId: template.id, groupId } : { templateId: template.id, roomIds: [...chosen.keys()] };
    // The shared rule: rooms or a group must be chosen.
    const checked = ZApplyPriceTemplateInput.safeParse(input);
    if (!checked.success) {
      setError(fieldMessage(t, checked.error.issues[0]?.message));
      return;
    }
    setError(undefined);
    apply.mutate(checked.data);
  };

  const selectedGroup = groups.data?.find((g) => g.id === groupId);

  return (
    <div className="grid gap-4">
      <DialogHeader>
        <DialogTitle>{t('roomSetup.applyTitle', { name: template.name })}</DialogTitle>
        <DialogDescription>{t('roomSetup.applyText')}</DialogDescription>
      </DialogHeader>

      <Tabs
        value={target}
        onValueChange={(value) => {
          setTarget(value as Target);
          setError(undefined);
        }}
      >
        <TabsList>
          <TabsTrigger value="group" data-testid="apply-to-group">
            {t('roomSetup.applyToGroup')}
          </TabsTrigger>
          <TabsTrigger value="rooms" data-testid="apply-to-rooms">
            {t('roomSetup.applyToRooms')}
          </TabsTrigger>
        </TabsList>

        <TabsContent value="group" className="grid gap-2">
          <Label htmlFor="apply-group">{t('roomSetup.group')}</Label>
          <Select
            value={groupId === undefined ? '' : String(groupId)}
            onValueChange={(value) => {
              setGroupId(Number(value));
              setError(undefined);
            }}
          >
            <SelectTrigger id="apply-group" className="w-full" aria-invalid={error ? true : undefined} data-testid="apply-group">
              <SelectValue placeholder={groups.isLoading ? t('common.loading') : t('roomSetup.chooseGroup')} />
            </SelectTrigger>
            <SelectContent>
              {(groups.data ?? []).map((g) => (
                <SelectItem key={g.id} value={String(g.id)}>
                  {t('roomSetup.groupWithRooms', { name: g.name, number: formatNumber(g.roomCount) })}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
          {groups.isSuccess && groups.data.length === 0 && <p className="text-muted-foreground text-sm">{t('roomSetup.noGroups')}</p>}
          {selectedGroup && <p className="text-muted-foreground text-sm">{t('roomSetup.applyGroupRooms', { number: formatNumber(selectedGroup.roomCount) })}</p>}
        </TabsContent>

        <TabsContent value="rooms" className="grid gap-2">
          <SearchInput
            value={searchText}
            onChange={(e) => setSearchText(e.target.value)}
            placeholder={t('roomSetup.searchRooms')}
            aria-label={t('roomSetup.searchRooms')}
            data-testid="apply-room-search"
          />
          <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
            <label className="flex items-center gap-2">
              <Checkbox
                checked={allShownChosen ? true : someShownChosen ? 'indeterminate' : false}
                onCheckedChange={(value) => toggleShown(value === true)}
                disabled={shown.length === 0}
                data-testid="apply-select-shown"
              />
              {t('roomSetup.selectShown')}
            </label>
            <div className="flex items-center gap-2">
              <span className="text-muted-foreground" data-testid="apply-chosen-count">
                {t('roomSetup.chosenRooms', { number: formatNumber(chosen.size) })}
              </span>
              {chosen.size > 0 && (
                <Button type="button" variant="ghost" size="sm" onClick={() => setChosen(new Map())}>
                  {t('roomSetup.clearChosen')}
                </Button>
              )}
            </div>
          </div>
          <div className="max-h-64 overflow-y-auto rounded-md border" aria-busy={rooms.isFetching} data-testid="apply-room-list">
            {rooms.isLoading ? (
              <div className="space-y-2 p-2">
                {Array.from({ length: 4 }, (_, i) => (
                  <Skeleton key={i} className="h-7 w-full" />
                ))}
              </div>
            ) : shown.length === 0 ? (
              <p className="text-muted-foreground p-4 text-center text-sm">{t('roomSetup.noRoomsFound')}</p>
            ) : (
              <ul className="divide-y">
                {shown.map((room) => (
                  <li key={room.id}>
                    <label className="hover:bg-muted/50 flex cursor-pointer items-center gap-3 px-3 py-2 text-sm">
                      <Checkbox checked={chosen.has(room.id)} onCheckedChange={(value) => toggle(room.id, room.name, value === true)} data-testid={`apply-room-${room.id}`} />
                      <span className="font-medium">{room.name}</span>
                      {room.groupName && <span className="text-muted-foreground ms-auto text-xs">{room.groupName}</span>}
                    </label>
                  </li>
                ))}
              </ul>
            )}
          </div>
          {rooms.data && rooms.data.total > shown.length && <p className="text-muted-foreground text-xs">{t('roomSetup.moreRooms', { number: formatNumber(shown.length) })}</p>}
        </TabsContent>
      </Tabs>

      {error && (
        <p role="alert" className="text-destructive text-sm" data-testid="apply-error">
          {error}
        </p>
      )}

      <DialogFooter>
        <Button type="button" variant="outline" onClick={onDone}>
          {t('common.cancel')}
        </Button>
        <Button type="button" onClick={submit} disabled={apply.isPending} data-testid="apply-submit">
          {apply.isPending && <Spinner />}
          {t('roomSetup.apply')}
        </Button>
      </DialogFooter>
    </div>
  );
}
