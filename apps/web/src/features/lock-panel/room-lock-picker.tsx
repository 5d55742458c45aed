import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Check, ChevronsUpDown } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Popover, PopoverContent, PopoverTrigger } from '@/components/ui/popover';
import { PickerStatus } from '@/components/picker-status';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { cn } from '@/lib/utils';
import { LOCK_PICKER_PAGE_SIZE, lockPanelQueries } from './api';

/** A lock as the picker offers it: its provider lock id (what the room form sends) and its name. */
export interface PickableLock {
  lockId: string;
  name: string;
}

/**
 * Picks a room's lock among the hotel's locks: "no lock" (the room is unpaired when saved), the
 * room's lock now, and the hotel's unpaired locks, searched by the server (name or lock id) 20 at
 * a time; each shown by its name and lock id. The value is the provider lock id, as the room form
 * sends it (empty: no lock). Keyboard: the button opens it, typing searches, arrows move, Enter
 * picks, Escape closes.
 */
export function RoomLockPicker({
  id,
  value,
  onChange,
  current,
  invalid,
  describedBy,
  'data-testid': testId,
}: {
  id: string;
  value: string;
  onChange(lockId: string): void;
  /** The room's lock as saved (null: none). */
  current: PickableLock | null;
  invalid?: boolean;
  describedBy?: string;
  'data-testid'?: string;
}) {
  const { t } = useTranslation();
  const [isOpen, setIsOpen] = useState(false);
  const [text, setText] = useState('');
  const [active, setActive] = useState(0);
  // Names of locks picked in this form, for the button (the list may not hold them any more).
  const [picked, setPicked] = useState<PickableLock | null>(null);
  const search = useDebouncedValue(text.trim(), 250);
  const listId = useId();
  const searchBox = useRef<HTMLInputElement>(null);
  const locks = useQuery(lockPanelQueries.unpairedLocks(search, isOpen));
  const found: PickableLock[] = (locks.data?.items ?? []).map((l) => ({ lockId: l.lockId, name: l.alias || l.name }));
  const matchesCurrent = current && (!search || `${current.name} ${current.lockId}`.toLowerCase().includes(search.toLowerCase()));
  const options: (PickableLock | null)[] = [null, ...(current && matchesCurrent ? [current] : []), ...found.filter((l) => l.lockId !== current?.lockId)];
  const index = Math.min(active, options.length - 1);
  const chosen = value === '' ? null : value === current?.lockId ? current : value === picked?.lockId ? picked : { lockId: value, name: '' };

  const pick = (lock: PickableLock | null) => {
    setPicked(lock);
    onChange(lock?.lockId ?? '');
    setIsOpen(false);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown') setActive(Math.min(index + 1, options.length - 1));
    else if (event.key === 'ArrowUp') setActive(Math.max(index - 1, 0));
    else if (event.key === 'Enter') pick(options[index] ?? null);
    else return;
    event.preventDefault();
  };
  const optionId = (lock: PickableLock | null) => `${listId}-${lock ? lock.lockId : 'none'}`;

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
          id={id}
          type="button"
          variant="outline"
          role="combobox"
          aria-expanded={isOpen}
          aria-controls={listId}
          aria-haspopup="listbox"
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          className={cn('h-auto min-h-9 w-full justify-between py-1.5 font-normal', !chosen && 'text-muted-foreground')}
          data-testid={testId}
          data-value={value}
        >
          {chosen ? <LockLabel lock={chosen} /> : <span className="truncate">{t('lockAccounts.roomLock.none')}</span>}
          <ChevronsUpDown className="opacity-50" aria-hidden />
        </Button>
      </PopoverTrigger>
      <PopoverContent
        className="w-(--radix-popover-trigger-width) min-w-72 p-2"
        align="start"
        onOpenAutoFocus={(e) => (e.preventDefault(), searchBox.current?.focus())}
      >
        <Input
          ref={searchBox}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
          placeholder={t('lockAccounts.roomLock.search')}
          aria-label={t('lockAccounts.roomLock.search')}
          role="combobox"
          aria-expanded
          aria-autocomplete="list"
          aria-controls={listId}
          aria-activedescendant={optionId(options[index] ?? null)}
          data-testid={testId ? `${testId}-search` : undefined}
        />
        <ul id={listId} role="listbox" aria-label={t('lockAccounts.roomLock.label')} className="mt-2 max-h-64 overflow-y-auto" aria-busy={locks.isFetching}>
          {options.map((lock, i) => {
            const isChosen = (lock?.lockId ?? '') === value;
            return (
              <li
                key={lock?.lockId ?? 'none'}
                id={optionId(lock)}
                role="option"
                aria-selected={isChosen}
                onMouseEnter={() => setActive(i)}
                onClick={() => pick(lock)}
                className={cn('flex cursor-pointer items-center gap-2 rounded-sm px-2 py-1.5 text-sm', i === index && 'bg-accent')}
                data-testid={testId ? `${testId}-option-${lock?.lockId ?? 'none'}` : undefined}
              >
                <Check className={cn('size-4 shrink-0', isChosen ? 'opacity-100' : 'opacity-0')} aria-hidden />
                {lock ? (
                  <>
                    <LockLabel lock={lock} />
                    {lock.lockId === current?.lockId && (
                      <span className="text-muted-foreground ms-auto shrink-0 text-xs">{t('lockAccounts.roomLock.current')}</span>
                    )}
                  </>
                ) : (
                  <span className="text-muted-foreground">{t('lockAccounts.roomLock.none')}</span>
                )}
              </li>
            );
          })}
        </ul>
        <PickerStatus
          query={locks}
          what={t('lockAccounts.locksWhat')}
          empty={found.length === 0 && t('lockAccounts.roomLock.noMatch')}
          more={(locks.data?.total ?? 0) > LOCK_PICKER_PAGE_SIZE && t('lockAccounts.roomLock.more')}
        />
      </PopoverContent>
    </Popover>
  );
}

/** A lock by its name and its lock id (the id alone when its name is not known here). */
function LockLabel({ lock }: { lock: PickableLock }) {
  return (
    <span className="grid min-w-0 text-start">
      {lock.name && (
        <span className="truncate" dir="auto">
          {lock.name}
        </span>
      )}
      <span className={cn('truncate font-mono', lock.name ? 'text-muted-foreground text-xs' : 'text-sm')} dir="ltr">
        {lock.lockId}
      </span>
    </span>
  );
}
