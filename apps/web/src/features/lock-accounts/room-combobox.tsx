import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { ChevronsUpDown, DoorClosed } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Popover, PopoverContent, PopoverTrigger } from '@/components/ui/popover';
import { PickerStatus } from '@/components/picker-status';
import type { RouterOutputs } from '@/lib/trpc-types';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { cn } from '@/lib/utils';
import { lockAccountQueries } from './api';

export type PairableRoom = RouterOutputs['lock']['pairableRooms']['items'][number];

/**
 * Picks the room a lock is paired with: the server searches the actor's rooms by name (50 at a
 * time), each shown with its group and the lock it has now. Keyboard: the button opens it (Enter,
 * Space, or Alt+Down), typing searches, arrows move, Enter picks, Escape closes.
 */
export function RoomCombobox({
  label,
  onPick,
  disabled,
  'data-testid': testId,
}: {
  label: string;
  onPick(room: PairableRoom): void;
  disabled?: boolean;
  'data-testid'?: string;
}) {
  const { t } = useTranslation();
  const [isOpen, setIsOpen] = useState(false);
  const [text, setText] = useState('');
  const [active, setActive] = useState(0);
  const search = useDebouncedValue(text.trim(), 250);
  const listId = useId();
  const searchBox = useRef<HTMLInputElement>(null);
  const rooms = useQuery(lockAccountQueries.pairableRooms(search, isOpen));
  const items = rooms.data?.items ?? [];
  const current = Math.min(active, Math.max(items.length - 1, 0));

  const pick = (room: PairableRoom) => {
    setIsOpen(false);
    onPick(room);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown') setActive(Math.min(current + 1, items.length - 1));
    else if (event.key === 'ArrowUp') setActive(Math.max(current - 1, 0));
    else if (event.key === 'Home') setActive(0);
    else if (event.key === 'End') setActive(Math.max(items.length - 1, 0));
    else if (event.key === 'Enter' && items[current]) pick(items[current]!);
    else return;
    event.preventDefault();
  };

  return (
    <Popover
      open={isOpen}
      onOpenChange={(open) => {
        setIsOpen(open);
        if (open) {
          setText('');
          setActive(0);
        }
      }}
    >
      <PopoverTrigger asChild>
        <Button
          type="button"
          variant="outline"
          size="sm"
          role="combobox"
          aria-expanded={isOpen}
          aria-controls={listId}
          aria-haspopup="listbox"
          aria-label={label}
          disabled={disabled}
          className="text-muted-foreground w-full max-w-48 justify-between font-normal"
          onKeyDown={(event) => {
            if (event.altKey && event.key === 'ArrowDown') {
              event.preventDefault();
              setIsOpen(true);
            }
          }}
          data-testid={testId}
        >
          <span className="truncate">{t('lockAccounts.pickRoom')}</span>
          <ChevronsUpDown className="opacity-50" aria-hidden />
        </Button>
      </PopoverTrigger>
      <PopoverContent className="w-72 p-2" align="start" onOpenAutoFocus={(e) => (e.preventDefault(), searchBox.current?.focus())}>
        <Input
          ref={searchBox}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
          placeholder={t('lockAccounts.searchRooms')}
          aria-label={label}
          role="combobox"
          aria-expanded
          aria-autocomplete="list"
          aria-controls={listId}
          aria-activedescendant={items[current] ? `${listId}-${items[current]!.id}` : undefined}
          data-testid={testId ? `${testId}-search` : undefined}
        />
        <ul id={listId} role="listbox" aria-label={label} className="mt-2 max-h-64 overflow-y-auto" aria-busy={rooms.isFetching}>
          {items.map((room, i) => (
            <li
              key={room.id}
              id={`${listId}-${room.id}`}
              role="option"
              aria-selected={i === current}
              onMouseEnter={() => setActive(i)}
              onClick={() => pick(room)}
              className={cn('flex cursor-pointer items-start gap-2 rounded-sm px-2 py-1.5 text-sm', i === current && 'bg-accent')}
              data-testid={testId ? `${testId}-option-${room.id}` : undefined}
            >
              <DoorClosed className="text-muted-foreground mt-0.5 size-4 shrink-0" aria-hidden />
              <span className="grid min-w-0 flex-1">
                <span className="truncate font-medium" dir="auto">
                  {room.name}
                  {room.groupName && <span className="text-muted-foreground ms-2 text-xs font-normal">{room.groupName}</span>}
                </span>
                {room.lock && (
                  <span className="text-muted-foreground truncate text-xs" dir="auto">
                    {t('lockAccounts.roomHasLock', { lock: room.lock.name })}
                  </span>
                )}
              </span>
            </li>
          ))}
        </ul>
        <PickerStatus
          query={rooms}
          what={t('common.rooms')}
          empty={items.length === 0 && t('common.noRoomsFound')}
          more={!!rooms.data && rooms.data.total > items.length && t('lockAccounts.moreRooms', { number: items.length })}
        />
      </PopoverContent>
    </Popover>
  );
}
