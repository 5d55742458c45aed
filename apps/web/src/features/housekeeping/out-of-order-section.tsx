import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { NativeSelect, NativeSelectOption } from '@/components/ui/native-select';
import { formatDate } from '@/lib/format';
import { useHotelSettings } from '@/lib/hotel-settings';
import { todayInHotel } from '@/lib/hotel-time';
import { toast } from '@/lib/toast';
import { trpc } from '@/lib/trpc';
import { housekeepingKey, housekeepingQueries, type OutOfOrderRange } from './api';

/**
 * Rooms out of order or out of service by dates (docs/housekeeping.md), on the housekeeping page
 * (any room: `rooms` lists them) or a room's page (`roomId`): the ranges to come, one added or
 * removed after a confirmation. Sales refuse a stay with a night in a range; the board follows.
 */
export function OutOfOrderSection({
  roomId,
  roomName: ownName,
  rooms,
}: {
  roomId?: number;
  roomName?: string;
  /** The housekeeping page's rooms, with the room board's maintenance axis today. */
  rooms?: { id: number; name: string; maintenance: 'none' | OutOfOrderRange['kind'] }[];
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const query = useQuery(housekeepingQueries.outOfOrder(roomId));
  const roomChoices = rooms ?? [];
  const [draft, setDraft] = useState({
    roomId: roomId ? String(roomId) : '',
    kind: 'out_of_order' as OutOfOrderRange['kind'],
    startDate: '',
    endDate: '',
    reason: '',
  });
  const [confirmAdd, setConfirmAdd] = useState(false);
  const [removing, setRemoving] = useState<OutOfOrderRange | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: housekeepingKey() });
  const create = useMutation(
    trpc.housekeeping.outOfOrderCreate.mutationOptions({
      meta: { showsErrors: true },
      onSuccess: (made) => {
        toast.success(t('housekeeping.ooo.added', { room: made.roomName }));
        setConfirmAdd(false);
        setDraft((d) => ({ ...d, startDate: '', endDate: '', reason: '' }));
        void refresh();
      },
      onError: () => setConfirmAdd(false),
    }),
  );
  const remove = useMutation(
    trpc.housekeeping.outOfOrderDelete.mutationOptions({
      meta: { showsErrors: true },
      onSuccess: () => {
        toast.success(t('housekeeping.ooo.removed'));
        setRemoving(null);
        void refresh();
      },
    }),
  );
  // One notion with the room board and Today (issue 39 §11): a room marked out of order on the board
  // with no range of today shows here too, as the board shows it.
  const today = todayInHotel(useHotelSettings().timeZone);
  const coveredToday = new Set((query.data ?? []).filter((r) => r.startDate <= today && r.endDate >= today).map((r) => r.roomId));
  const marked = query.data ? roomChoices.filter((r) => r.maintenance !== 'none' && !coveredToday.has(r.id)) : [];
  const ready = Number(draft.roomId) > 0 && draft.startDate !== '' && draft.endDate !== '' && draft.reason.trim() !== '';
  const roomName = roomChoices.find((r) => String(r.id) === draft.roomId)?.name ?? '';
  return (
    <section aria-labelledby="ooo-title" className="space-y-3 rounded-lg border p-3" data-testid="ooo-section">
      <h2 id="ooo-title" className="text-lg font-semibold">
        {t('housekeeping.ooo.title')}
      </h2>
      <ul className="space-y-1">
        {(query.data ?? []).map((r) => (
          <li key={r.id} className="flex flex-wrap items-center justify-between gap-2 text-sm" data-testid="ooo-range">
            <span>
              {t('housekeeping.ooo.line', {
                room: r.roomName,
                kind: t(`housekeeping.ooo.kind.${r.kind}`),
                from: formatDate(r.startDate),
                to: formatDate(r.endDate),
                reason: r.reason,
              })}
            </span>
            <Button size="sm" variant="outline" onClick={() => setRemoving(r)}>
              {t('housekeeping.ooo.remove')}
            </Button>
          </li>
        ))}
        {marked.map((r) => (
          <li key={`board-${r.id}`} className="flex flex-wrap items-center justify-between gap-2 text-sm" data-testid="ooo-marked">
            <span>{t('housekeeping.ooo.marked', { room: r.name, kind: t(`housekeeping.ooo.kind.${r.maintenance as OutOfOrderRange['kind']}`) })}</span>
            <Link to="/room/$roomId" params={{ roomId: r.id }} className="underline underline-offset-2">
              {t('housekeeping.ooo.openRoom', { room: r.name })}
            </Link>
          </li>
        ))}
        {query.data?.length === 0 && marked.length === 0 && <li className="text-muted-foreground text-sm">{t('housekeeping.ooo.none')}</li>}
      </ul>
      <form
        className="flex flex-wrap items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          if (ready) setConfirmAdd(true);
        }}
      >
        {!roomId && (
          <Label className="flex flex-col items-start gap-1 text-sm">
            <span>{t('housekeeping.ooo.room')}</span>
            <NativeSelect value={draft.roomId} onChange={(e) => setDraft({ ...draft, roomId: e.target.value })} data-testid="ooo-room">
              <NativeSelectOption value="">{t('housekeeping.ooo.chooseRoom')}</NativeSelectOption>
              {roomChoices.map((r) => (
                <NativeSelectOption key={r.id} value={String(r.id)}>
                  {r.name}
                </NativeSelectOption>
              ))}
            </NativeSelect>
          </Label>
        )}
        <Label className="flex flex-col items-start gap-1 text-sm">
          <span>{t('housekeeping.ooo.kindLabel')}</span>
          <NativeSelect value={draft.kind} onChange={(e) => setDraft({ ...draft, kind: e.target.value as OutOfOrderRange['kind'] })}>
            <NativeSelectOption value="out_of_order">{t('housekeeping.ooo.kind.out_of_order')}</NativeSelectOption>
            <NativeSelectOption value="out_of_service">{t('housekeeping.ooo.kind.out_of_service')}</NativeSelectOption>
          </NativeSelect>
        </Label>
        <Label className="flex flex-col items-start gap-1 text-sm">
          <span>{t('housekeeping.ooo.from')}</span>
          <Input type="date" value={draft.startDate} onChange={(e) => setDraft({ ...draft, startDate: e.target.value })} data-testid="ooo-from" />
        </Label>
        <Label className="flex flex-col items-start gap-1 text-sm">
          <span>{t('housekeeping.ooo.to')}</span>
          <Input type="date" value={draft.endDate} onChange={(e) => setDraft({ ...draft, endDate: e.target.value })} data-testid="ooo-to" />
        </Label>
        <Label className="flex flex-col items-start gap-1 text-sm">
          <span>{t('housekeeping.ooo.reason')}</span>
          <Input value={draft.reason} maxLength={500} onChange={(e) => setDraft({ ...draft, reason: e.target.value })} data-testid="ooo-reason" />
        </Label>
        <Button type="submit" disabled={!ready} data-testid="ooo-add">
          {t('housekeeping.ooo.add')}
        </Button>
      </form>
      <ConfirmDialog
        open={confirmAdd}
        onOpenChange={setConfirmAdd}
        title={t('housekeeping.ooo.confirmTitle')}
        description={t('housekeeping.ooo.confirmText', {
          room: roomName || ownName || '',
          from: formatDate(draft.startDate),
          to: formatDate(draft.endDate),
        })}
        confirmLabel={t('housekeeping.ooo.add')}
        pending={create.isPending}
        onConfirm={() =>
          create.mutate({ roomId: Number(draft.roomId), kind: draft.kind, startDate: draft.startDate, endDate: draft.endDate, reason: draft.reason })
        }
        confirmTestId="ooo-confirm"
      />
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => !open && setRemoving(null)}
        title={t('housekeeping.ooo.removeTitle')}
        description={
          removing ? t('housekeeping.ooo.removeText', { room: removing.roomName, from: formatDate(removing.startDate), to: formatDate(removing.endDate) }) : ''
        }
        confirmLabel={t('housekeeping.ooo.remove')}
        destructive
        pending={remove.isPending}
        onConfirm={() => removing && remove.mutate({ id: removing.id })}
      />
    </section>
  );
}
