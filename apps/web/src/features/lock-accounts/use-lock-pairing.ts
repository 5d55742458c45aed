import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { appErrorOf } from '@/lib/api-errors';
import { formatNumber } from '@/lib/format';
import { toast } from '@/lib/toast';
import { trpcClient } from '@/lib/trpc';
import { invalidateLocksAndRooms } from './api';
import { lockName, type HotelLock } from './lock-accounts';
import type { PairableRoom } from './room-combobox';

/** A pairing asked first: a lock for a room that has another lock now, or a room left without its lock. */
export type Asked = { kind: 'replace'; lock: HotelLock; room: PairableRoom } | { kind: 'unpair'; lock: HotelLock; room: { id: number; name: string } };

/**
 * The pairings of the hotel's locks: one at once (a suggestion, a free room: a refusal is the
 * server's message in a toast), one asked first (a room's lock replaced, a lock unpaired: a refusal
 * stays in the prompt), and every suggestion at once (asked first). Each makes the locks and rooms stale.
 */
export function useLockPairing() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [asked, setAsked] = useState<Asked | null>(null);
  const [isPairAllOpen, setIsPairAllOpen] = useState(false);

  const changed = () => invalidateLocksAndRooms(queryClient);
  /** A pairing done at once (a suggestion, a free room): a refusal is the server's message in a toast. */
  const pairNow = useMutation({
    meta: { showsErrors: true },
    mutationFn: ({ lock, room }: { lock: HotelLock; room: { id: number; name: string } }) =>
      trpcClient.lock.pair.mutate({ pairs: [{ roomId: room.id, lockId: lock.id }] }),
    onSuccess: (_data, { lock, room }) => toast.success(t('lockAccounts.paired', { lock: lockName(lock), room: room.name })),
    onError: (error) => toast.error(appErrorOf(error)?.message ?? t('common.noAnswer')),
    onSettled: changed,
  });
  /** A pairing asked first (a room's lock replaced, a lock unpaired): a refusal stays in the prompt. */
  const pairAsked = useMutation({
    meta: { showsErrors: true },
    mutationFn: (what: Asked) => trpcClient.lock.pair.mutate({ pairs: [{ roomId: what.room.id, lockId: what.kind === 'unpair' ? null : what.lock.id }] }),
    onSuccess: (_data, what) => {
      toast.success(t(what.kind === 'unpair' ? 'lockAccounts.unpaired' : 'lockAccounts.paired', { lock: lockName(what.lock), room: what.room.name }));
      setAsked(null);
    },
    onSettled: changed,
  });
  const pairAll = useMutation({
    meta: { showsErrors: true },
    mutationFn: async () => {
      const { pairs } = await trpcClient.lock.suggestedPairs.query();
      if (pairs.length === 0) return { paired: 0 };
      return trpcClient.lock.pair.mutate({ pairs });
    },
    onSuccess: ({ paired }) => {
      toast.success(t('lockAccounts.pairedAll', { number: formatNumber(paired) }));
      setIsPairAllOpen(false);
    },
    onSettled: changed,
  });

  /** Pairs the lock with the room, or asks first when the room has another lock now. */
  const pairWith = (lock: HotelLock, room: PairableRoom | { id: number; name: string }) => {
    if ('lock' in room && room.lock) {
      pairAsked.reset();
      setAsked({ kind: 'replace', lock, room });
      return;
    }
    pairNow.mutate({ lock, room });
  };
  const askUnpair = (lock: HotelLock, room: { id: number; name: string }) => {
    pairAsked.reset();
    setAsked({ kind: 'unpair', lock, room });
  };
  const askPairAll = () => {
    pairAll.reset();
    setIsPairAllOpen(true);
  };

  return { asked, setAsked, isPairAllOpen, setIsPairAllOpen, pairNow, pairAsked, pairAll, pairWith, askUnpair, askPairAll };
}

export type LockPairing = ReturnType<typeof useLockPairing>;
