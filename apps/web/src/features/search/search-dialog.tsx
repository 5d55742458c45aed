import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { Command } from 'cmdk';
import { BedDouble, CalendarRange, CreditCard, History, Lock, Search, User, Users } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { LIMITS } from '@console/shared';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import { formatShortDateTime } from '@/lib/format';
import { useHotelSettings } from '@/lib/hotel-settings';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { useUserInfo } from '@/lib/user-info';
import { appErrorOf } from '@/lib/api-errors';
import { searchQueries } from './api';
import { searchErrorKey, toHits, type SearchGroup, type SearchHit } from './hits';
import { readRecent, recentKey, rememberRecent } from './recent';

const ICONS: Record<SearchGroup, typeof Search> = {
  rooms: BedDouble,
  guests: User,
  reservations: CalendarRange,
  cards: CreditCard,
  locks: Lock,
  staff: Users,
};

const storage = () => (typeof localStorage === 'undefined' ? undefined : localStorage);

/**
 * The search box (issue 28 §3): a command palette (cmdk on the console's Radix dialog). The text is
 * sent once it has stopped changing; the results come grouped (rooms, guests, stays, cards, locks,
 * staff); arrow keys move, Enter opens the result's page. Empty, it lists the results this member
 * opened last in this hotel (recent.ts).
 */
export function SearchDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const user = useUserInfo();
  const { timeZone } = useHotelSettings();
  const key = user ? recentKey(user.id, user.hotel.id) : null;
  const [recent, setRecent] = useState<SearchHit[]>(() => (key ? readRecent(storage(), key) : []));
  const [text, setText] = useState('');
  const settled = useDebouncedValue(text.trim(), 200);
  const query = useQuery({ ...searchQueries.query(settled), enabled: settled.length > 0 });
  const isEmpty = text.trim().length === 0;

  const groups = useMemo(() => {
    if (isEmpty || !query.data) return [];
    return toHits(query.data, {
      status: (s) => t(`roomStatus.${s}`, { defaultValue: s }),
      stayState: (s) => t(`stayState.${s}`, { defaultValue: s }),
      cardKind: (k) => t(`cards.kinds.${k}`, { defaultValue: k }),
      role: (r) => t(`staff.roles.${r}`, { defaultValue: r }),
      dates: (from, to) => t('search.dates', { from: formatShortDateTime(from, timeZone), to: formatShortDateTime(to, timeZone) }),
    });
  }, [isEmpty, query.data, t, timeZone]);

  const open = (hit: SearchHit) => {
    if (key) setRecent(rememberRecent(storage(), key, hit));
    onClose();
    void navigate({ href: hit.href });
  };

  const item = (hit: SearchHit) => {
    const Icon = ICONS[hit.group];
    return (
      <Command.Item
        key={hit.key}
        value={hit.key}
        onSelect={() => open(hit)}
        data-testid="search-result"
        data-group={hit.group}
        className="flex cursor-pointer items-center gap-3 rounded-md px-3 py-2 text-sm outline-none data-[selected=true]:bg-accent data-[selected=true]:text-accent-foreground"
      >
        <Icon className="size-4 shrink-0 text-muted-foreground" aria-hidden />
        <span className="min-w-0 flex-1">
          <span className="block truncate font-medium">{hit.title}</span>
          {hit.detail && <span className="block truncate text-xs text-muted-foreground">{hit.detail}</span>}
        </span>
      </Command.Item>
    );
  };
  const heading =
    'px-1 [&_[cmdk-group-heading]]:px-2 [&_[cmdk-group-heading]]:py-1.5 [&_[cmdk-group-heading]]:text-xs [&_[cmdk-group-heading]]:font-medium [&_[cmdk-group-heading]]:text-muted-foreground';
  const isWaiting = !isEmpty && (text.trim() !== settled || query.isFetching);

  return (
    <Dialog open onOpenChange={(isOpen) => !isOpen && onClose()}>
      <DialogContent className="top-0 bottom-auto mt-[8vh] gap-0 overflow-hidden p-0 sm:max-w-xl" data-testid="search-dialog">
        <DialogTitle className="sr-only">{t('search.title')}</DialogTitle>
        <DialogDescription className="sr-only">{t('search.description')}</DialogDescription>
        <Command label={t('search.title')} shouldFilter={false} loop className="flex min-w-0 flex-col">
          <div className="flex items-center gap-2 border-b px-3">
            <Search className="size-4 shrink-0 text-muted-foreground" aria-hidden />
            <Command.Input
              value={text}
              onValueChange={setText}
              maxLength={LIMITS.searchMaxLength}
              placeholder={t('search.placeholder')}
              aria-label={t('search.title')}
              data-testid="search-input"
              className="h-12 w-full min-w-0 bg-transparent text-base outline-none placeholder:text-muted-foreground sm:text-sm"
            />
            {isWaiting && <Spinner className="size-4" />}
            <span className="sr-only" role="status">
              {isWaiting ? t('search.searching') : ''}
            </span>
          </div>
          <Command.List className="max-h-[min(60vh,28rem)] overflow-y-auto p-1" data-testid="search-results">
            {isEmpty ? (
              recent.length > 0 ? (
                <Command.Group heading={t('search.recent')} className={heading}>
                  {recent.map((hit) => (
                    <RecentItem key={hit.key} hit={hit} onOpen={open} />
                  ))}
                </Command.Group>
              ) : (
                <p className="px-3 py-6 text-center text-sm text-muted-foreground">{t('search.hint')}</p>
              )
            ) : query.isError ? (
              <p role="alert" className="px-3 py-6 text-center text-sm text-destructive" data-testid="search-error">
                {t(searchErrorKey(appErrorOf(query.error)))}
              </p>
            ) : (
              <>
                {groups.map(({ group, hits }) => (
                  <Command.Group key={group} heading={t(`search.groups.${group}`)} className={heading}>
                    {hits.map(item)}
                  </Command.Group>
                ))}
                {!isWaiting && query.data && groups.length === 0 && (
                  <p className="px-3 py-6 text-center text-sm text-muted-foreground" data-testid="search-empty">
                    {t('search.noResults')}
                  </p>
                )}
              </>
            )}
          </Command.List>
          <p className="hidden border-t px-3 py-2 text-xs text-muted-foreground sm:block">{t('search.footer')}</p>
        </Command>
      </DialogContent>
    </Dialog>
  );
}

/** A recent result: as it was when it was opened, with a mark that it is one. */
function RecentItem({ hit, onOpen }: { hit: SearchHit; onOpen: (hit: SearchHit) => void }) {
  return (
    <Command.Item
      value={`recent-${hit.key}`}
      onSelect={() => onOpen(hit)}
      data-testid="search-recent"
      className="flex cursor-pointer items-center gap-3 rounded-md px-3 py-2 text-sm outline-none data-[selected=true]:bg-accent data-[selected=true]:text-accent-foreground"
    >
      <History className="size-4 shrink-0 text-muted-foreground" aria-hidden />
      <span className="min-w-0 flex-1">
        <span className="block truncate font-medium">{hit.title}</span>
        {hit.detail && <span className="block truncate text-xs text-muted-foreground">{hit.detail}</span>}
      </span>
    </Command.Item>
  );
}
