import { Link } from '@tanstack/react-router';
import { TriangleAlert, Unlink } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { IconAction } from '@/components/icon-action';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { TableCell, TableRow } from '@/components/ui/table';
import { cn } from '@/lib/utils';
import { lockName, type HotelLock } from './lock-accounts';
import { Features, LockState } from './lock-state';
import { RoomCombobox, type PairableRoom } from './room-combobox';

/** A lock of the hotel's list: its names and ids, its account, what it can take, its state and its room. */
export function LockRow({
  lock,
  canPair,
  isPairing,
  onPair,
  onUnpair,
}: {
  lock: HotelLock;
  canPair: boolean;
  isPairing: boolean;
  onPair(room: { id: number; name: string } | PairableRoom): void;
  onUnpair(room: { id: number; name: string }): void;
}) {
  const { t } = useTranslation();
  const name = lockName(lock);
  return (
    <TableRow
      data-testid={`lock-row-${lock.id}`}
      data-lock-id={lock.lockId}
      data-gone={lock.gone}
      data-paired={lock.room !== null || lock.sharedDoor !== null}
      data-shared-door={lock.sharedDoor ?? undefined}
      className={cn(lock.gone && 'bg-destructive/5')}
    >
      <TableCell className="max-w-72 align-top">
        <div className="truncate font-medium" dir="auto" title={name} data-testid="lock-name">
          {name}
        </div>
        <div className="text-muted-foreground grid text-xs">
          {lock.alias && lock.name !== lock.alias && (
            <span className="truncate" dir="ltr" title={lock.name}>
              {lock.name}
            </span>
          )}
          <span className="truncate font-mono">
            {t('lockAccounts.lockIdValue', { id: lock.lockId })}
            {lock.mac && (
              <>
                {' · '}
                <bdi dir="ltr">{lock.mac}</bdi>
              </>
            )}
          </span>
          {/* What the hidden columns say, on a narrow screen. */}
          <span className="truncate lg:hidden" dir="ltr">
            {lock.account?.username}
          </span>
        </div>
        <div className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 sm:hidden">
          <LockState lock={lock} />
        </div>
        <div className="mt-1 md:hidden">
          <Features lock={lock} />
        </div>
        {lock.gone && (
          <Badge variant="destructive" className="mt-1 whitespace-normal" title={t('lockAccounts.goneHint')} data-testid="lock-gone">
            <TriangleAlert aria-hidden />
            {t('lockAccounts.gone')}
          </Badge>
        )}
      </TableCell>
      <TableCell className="hidden max-w-48 align-top text-sm lg:table-cell">
        <span className="block truncate" dir="ltr" title={lock.account?.username}>
          {lock.account?.username ?? '—'}
        </span>
        {lock.account && lock.account.state !== 'connected' && <span className="text-xs text-amber-800">{t(`lockAccounts.states.${lock.account.state}`)}</span>}
      </TableCell>
      <TableCell className="hidden align-top md:table-cell">
        <Features lock={lock} />
      </TableCell>
      <TableCell className="hidden align-top sm:table-cell">
        <div className="grid gap-1">
          <LockState lock={lock} />
        </div>
      </TableCell>
      <TableCell className="align-top" data-testid="lock-room">
        <RoomCell lock={lock} name={name} canPair={canPair} isPairing={isPairing} onPair={onPair} onUnpair={onUnpair} />
      </TableCell>
    </TableRow>
  );
}

function RoomCell({
  lock,
  name,
  canPair,
  isPairing,
  onPair,
  onUnpair,
}: {
  lock: HotelLock;
  name: string;
  canPair: boolean;
  isPairing: boolean;
  onPair(room: { id: number; name: string } | PairableRoom): void;
  onUnpair(room: { id: number; name: string }): void;
}) {
  const { t } = useTranslation();
  if (lock.room) {
    const room = lock.room;
    return (
      <div className="grid gap-1">
        <div className="flex items-center gap-1">
          <Link
            to="/room/$roomId"
            params={{ roomId: room.id }}
            className="focus-visible:ring-ring truncate rounded-sm font-medium outline-none hover:underline focus-visible:ring-2"
            data-testid="lock-room-link"
          >
            {room.name}
          </Link>
          {canPair && (
            <IconAction label={t('lockAccounts.unpairLabel', { lock: name, room: room.name })} onClick={() => onUnpair(room)} testId={`lock-unpair-${lock.id}`}>
              <Unlink aria-hidden />
            </IconAction>
          )}
        </div>
        {lock.gone && <span className="text-destructive text-xs">{t('lockAccounts.goneRoomHint')}</span>}
      </div>
    );
  }
  // A shared door is in use, serving rooms without being one's (its rooms are set on its lock's page).
  if (lock.sharedDoor)
    return (
      <span className="text-sm" data-testid="lock-shared-door">
        {t('sharedDoors.section')} · {t(`sharedDoors.kinds.${lock.sharedDoor}`)}
      </span>
    );
  if (lock.gone) return <span className="text-muted-foreground text-sm">—</span>;
  return (
    <div className="grid gap-1.5">
      {lock.suggestedRoom && (
        <div className="flex flex-wrap items-center gap-x-2 gap-y-1" data-testid="lock-suggestion">
          <span className="text-sm">{t('lockAccounts.suggested', { room: lock.suggestedRoom.name })}</span>
          {canPair && (
            <Button
              size="sm"
              variant="secondary"
              className="h-7"
              disabled={isPairing}
              onClick={() => onPair({ id: lock.suggestedRoom!.id, name: lock.suggestedRoom!.name })}
              aria-label={t('lockAccounts.pairSuggestedLabel', { lock: name, room: lock.suggestedRoom.name })}
              data-testid={`lock-pair-suggested-${lock.id}`}
            >
              {t('lockAccounts.pair')}
            </Button>
          )}
        </div>
      )}
      {canPair ? (
        <RoomCombobox
          label={t('lockAccounts.pickRoomFor', { lock: name })}
          onPick={(room) => onPair(room)}
          disabled={isPairing}
          data-testid={`lock-room-picker-${lock.id}`}
        />
      ) : (
        !lock.suggestedRoom && <span className="text-muted-foreground text-sm">{t('lockAccounts.noRoom')}</span>
      )}
    </div>
  );
}
