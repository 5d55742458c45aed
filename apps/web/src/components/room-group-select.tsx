import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { sharedQueries } from '@/lib/queries';
import { cn } from '@/lib/utils';

const NO_GROUP = 'none';

/** Picks a room group of the hotel, or none. */
export function RoomGroupSelect({
  id,
  value,
  onChange,
  invalid,
  className,
}: {
  id: string;
  value: number | null;
  onChange(groupId: number | null): void;
  invalid?: boolean;
  className?: string;
}) {
  const { t } = useTranslation();
  const groups = useQuery(sharedQueries.roomGroups());
  return (
    <Select value={value === null ? NO_GROUP : String(value)} onValueChange={(v) => onChange(v === NO_GROUP ? null : Number(v))} disabled={groups.isLoading}>
      <SelectTrigger id={id} className={cn('w-full', className)} aria-invalid={invalid || undefined}>
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        <SelectItem value={NO_GROUP}>{t('frontDesk.board.noGroup')}</SelectItem>
        {/* Until the groups arrive the chosen one is still named. */}
        {value !== null && !groups.data?.some((g) => g.id === value) && (
          <SelectItem value={String(value)}>{groups.isLoading ? t('common.loading') : `#${value}`}</SelectItem>
        )}
        {groups.data?.map((group) => (
          <SelectItem key={group.id} value={String(group.id)}>
            {group.name}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}

/** Picks one room group of the hotel (a reservation's "any room of this group"); `placeholder` until one is picked. */
export function RoomGroupPicker({
  id,
  value,
  onChange,
  placeholder,
  invalid,
  'data-testid': testId,
}: {
  id: string;
  value: number | null;
  onChange(groupId: number): void;
  placeholder: string;
  invalid?: boolean;
  'data-testid'?: string;
}) {
  const { t } = useTranslation();
  const groups = useQuery(sharedQueries.roomGroups());
  return (
    <Select value={value === null ? '' : String(value)} onValueChange={(v) => onChange(Number(v))} disabled={groups.isLoading}>
      <SelectTrigger id={id} className="w-full" aria-invalid={invalid || undefined} data-testid={testId}>
        <SelectValue placeholder={groups.isLoading ? t('common.loading') : placeholder} />
      </SelectTrigger>
      <SelectContent>
        {groups.data?.map((group) => (
          <SelectItem key={group.id} value={String(group.id)} data-testid={`${testId ?? id}-option-${group.id}`}>
            {group.name}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
