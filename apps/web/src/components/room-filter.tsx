import { X } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { RoomPicker } from '@/components/room-picker';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { cn } from '@/lib/utils';

/**
 * A list's room filter: one room, or all rooms (the cross beside a picked room). The room is named
 * from the URL's id (a reload, a shared link) until `roomName` arrives.
 */
export function RoomFilter({
  id,
  roomId,
  roomName,
  onChange,
  className,
  'data-testid': testId,
  clearTestId,
}: {
  id: string;
  roomId: number | undefined;
  roomName: string | undefined;
  onChange(roomId: number | undefined): void;
  className?: string;
  'data-testid': string;
  clearTestId?: string;
}) {
  const { t } = useTranslation();
  const picked = roomId === undefined ? [] : [{ id: roomId, name: roomName ?? `#${roomId}` }];
  return (
    <div className={cn('grid gap-1.5', className)}>
      <Label htmlFor={id}>{t('stays.room')}</Label>
      <div className="flex w-44 items-start gap-1">
        <div className="min-w-0 flex-1">
          <RoomPicker id={id} value={picked} onChange={(rooms) => onChange(rooms[0]?.id)} placeholder={t('stays.allRooms')} data-testid={testId} />
        </div>
        {roomId !== undefined && (
          <Button
            variant="ghost"
            size="icon"
            className="shrink-0"
            onClick={() => onChange(undefined)}
            aria-label={t('stays.allRooms')}
            data-testid={clearTestId}
          >
            <X aria-hidden />
          </Button>
        )}
      </div>
    </div>
  );
}
