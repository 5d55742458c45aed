import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Check, ChevronDown, ChevronLeft, ChevronRight, X } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { TRoomStatus } from '@console/shared';
import { RoomStatusBadge } from '@/components/status-badges';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Popover, PopoverContent, PopoverTrigger } from '@/components/ui/popover';
import { PickerStatus } from '@/components/picker-status';
import { sharedQueries } from '@/lib/queries';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { cn } from '@/lib/utils';

export interface PickedRoom {
  id: number;
  name: string;
}

const PAGE_SIZE = 20;

interface RoomPickerProps {
  id: string;
  /** The rooms chosen (one at most unless `multiple`). */
  value: PickedRoom[];
  onChange(rooms: PickedRoom[]): void;
  multiple?: boolean;
  /** Only rooms of this status (the server filters); the user can still search them all by name. */
  status?: TRoomStatus;
  /** Rooms that cannot be chosen (the stay's own room). */
  excludeIds?: number[];
  /** Only rooms free over this period (the server filters): no stay held over it, not out of order (ISO instants). */
  freeBetween?: { from: string; to: string };
  placeholder: string;
  invalid?: boolean;
  describedBy?: string;
  disabled?: boolean;
  /**
   * The field's name where no <label> names the picker (its button's name is then this and what it
   * shows, e.g. "Choose rooms: 2 rooms chosen"); a combobox is not named by its own text.
   */
  'aria-label'?: string;
  'data-testid'?: string;
}

/**
 * Picks rooms of a hotel of any size: the server searches (name, remark name, guest) and pages,
 * 20 rooms at a time, so room 10,001 is as easy to pick as room 1. Keyboard: type to search, arrows
 * to move, Enter to pick, Escape to close.
 */
export function RoomPicker({
  id,
  value,
  onChange,
  multiple = false,
  status,
  excludeIds = [],
  freeBetween,
  placeholder,
  invalid,
  describedBy,
  disabled,
  'aria-label': ariaLabel,
  'data-testid': testId,
}: RoomPickerProps) {
  const { t } = useTranslation();
  const [isOpen, setIsOpen] = useState(false);
  const [text, setText] = useState('');
  const [page, setPage] = useState(1);
  const [active, setActive] = useState(0);
  const search = useDebouncedValue(text.trim(), 250);
  const listId = useId();
  const searchBox = useRef<HTMLInputElement>(null);
  const rooms = useQuery(
    sharedQueries.pickerRooms(
      { page, pageSize: PAGE_SIZE, search: search || undefined, status, ...(freeBetween ? { freeFrom: freeBetween.from, freeTo: freeBetween.to } : {}) },
      isOpen,
    ),
  );
  const items = (rooms.data?.items ?? []).filter((r) => !excludeIds.includes(r.id));
  const total = rooms.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const chosen = new Set(value.map((r) => r.id));
  // The highlighted row, kept within a list that got shorter under it (a new search, another page).
  const current = Math.min(active, Math.max(items.length - 1, 0));

  const pick = (room: PickedRoom) => {
    if (multiple) onChange(chosen.has(room.id) ? value.filter((r) => r.id !== room.id) : [...value, { id: room.id, name: room.name }]);
    else {
      onChange([{ id: room.id, name: room.name }]);
      setIsOpen(false);
    }
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown') setActive(Math.min(current + 1, items.length - 1));
    else if (event.key === 'ArrowUp') setActive(Math.max(current - 1, 0));
    else if (event.key === 'PageDown' && page < pages) setPage(page + 1);
    else if (event.key === 'PageUp' && page > 1) setPage(page - 1);
    else if (event.key === 'Enter' && items[current]) pick(items[current]!);
    else return;
    event.preventDefault();
  };

  const label = value.length === 0 ? placeholder : multiple ? t('common.roomsChosen', { count: value.length }) : value[0]!.name;

  return (
    <div className="grid gap-2">
      <Popover
        open={isOpen}
        onOpenChange={(open) => {
          setIsOpen(open);
          if (open) setActive(0);
        }}
      >
        <PopoverTrigger asChild>
          <Button
            id={id}
            type="button"
            variant="outline"
            role="combobox"
            aria-expanded={isOpen}
            aria-controls={listId}
            aria-invalid={invalid || undefined}
            aria-describedby={describedBy}
            aria-label={ariaLabel ? (ariaLabel === label ? label : `${ariaLabel}: ${label}`) : undefined}
            disabled={disabled}
            className={cn('w-full justify-between font-normal', value.length === 0 && 'text-muted-foreground')}
            data-testid={testId}
          >
            <span className="truncate">{label}</span>
            <ChevronDown className="opacity-50" aria-hidden />
          </Button>
        </PopoverTrigger>
        <PopoverContent
          aria-label={ariaLabel ?? placeholder}
          className="w-(--radix-popover-trigger-width) min-w-72 p-2"
          align="start"
          onOpenAutoFocus={(e) => (e.preventDefault(), searchBox.current?.focus())}
        >
          <Input
            ref={searchBox}
            value={text}
            onChange={(e) => {
              setText(e.target.value);
              setPage(1);
              setActive(0);
            }}
            onKeyDown={onKeyDown}
            placeholder={t('common.searchRooms')}
            aria-label={t('common.searchRooms')}
            aria-controls={listId}
            aria-activedescendant={items[current] ? `${listId}-${items[current]!.id}` : undefined}
            data-testid={testId ? `${testId}-search` : undefined}
          />
          <ul id={listId} role="listbox" aria-multiselectable={multiple || undefined} className="mt-2 max-h-64 overflow-y-auto" aria-busy={rooms.isFetching}>
            {items.map((room, i) => (
              <li
                key={room.id}
                id={`${listId}-${room.id}`}
                role="option"
                aria-selected={chosen.has(room.id)}
                onMouseEnter={() => setActive(i)}
                onClick={() => pick(room)}
                className={cn('flex cursor-pointer items-center gap-2 rounded-sm px-2 py-1.5 text-sm', i === current && 'bg-accent')}
                data-testid={testId ? `${testId}-option-${room.id}` : undefined}
              >
                <Check className={cn('size-4', chosen.has(room.id) ? 'opacity-100' : 'opacity-0')} aria-hidden />
                <span className="flex-1 truncate">{room.name}</span>
                <RoomStatusBadge status={room.status} />
              </li>
            ))}
          </ul>
          <PickerStatus query={rooms} what={t('common.rooms')} empty={items.length === 0 && t('common.noRoomsFound')} />
          {pages > 1 && (
            <div className="mt-2 flex items-center justify-between border-t pt-2 text-sm">
              <Button type="button" variant="ghost" size="icon-sm" disabled={page <= 1} onClick={() => setPage(page - 1)} aria-label={t('pagination.previous')}>
                <ChevronLeft className="rtl:rotate-180" aria-hidden />
              </Button>
              <span className="text-muted-foreground tabular-nums">{t('common.pageOf', { page, pages })}</span>
              <Button type="button" variant="ghost" size="icon-sm" disabled={page >= pages} onClick={() => setPage(page + 1)} aria-label={t('pagination.next')}>
                <ChevronRight className="rtl:rotate-180" aria-hidden />
              </Button>
            </div>
          )}
        </PopoverContent>
      </Popover>
      {multiple && value.length > 0 && (
        <ul className="flex flex-wrap gap-1" aria-label={t('common.roomsChosen', { count: value.length })}>
          {value.map((room) => (
            <li key={room.id} className="bg-muted flex items-center gap-1 rounded-full py-0.5 ps-2 pe-1 text-xs">
              {room.name}
              <button
                type="button"
                className="hover:bg-background rounded-full p-0.5"
                onClick={() => onChange(value.filter((r) => r.id !== room.id))}
                aria-label={t('common.removeRoom', { room: room.name })}
              >
                <X className="size-3" aria-hidden />
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
