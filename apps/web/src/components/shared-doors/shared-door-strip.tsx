import { useQuery } from '@tanstack/react-query';
import { DoorOpen } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import { formatNumber } from '@/lib/format';
import { sharedQueries } from '@/lib/queries';

/**
 * The room board's strip of shared doors (issue 20 §5, docs/shared-doors.md): apart from the rooms,
 * each door with its kind, whether it is online, and the stays' codes and faces on it by delivery
 * state. Nothing is shown when the hotel has no shared door.
 */
export function SharedDoorStrip() {
  const { t } = useTranslation();
  const doors = useQuery(sharedQueries.sharedDoors());
  const items = doors.data?.items ?? [];
  if (!items.length) return null;
  return (
    <section aria-label={t('sharedDoors.title')} className="flex flex-wrap items-center gap-2" data-testid="shared-door-strip">
      <h2 className="text-muted-foreground flex items-center gap-1 text-sm font-medium">
        <DoorOpen aria-hidden className="size-4" />
        {t('sharedDoors.title')}
      </h2>
      {items.map((door) => (
        <div key={door.lockId} className="flex items-center gap-1.5 rounded-md border px-2 py-1 text-sm" data-testid={`shared-door-${door.lockId}`}>
          <span className="font-medium">{door.name}</span>
          <Badge variant="secondary">{t(`sharedDoors.kinds.${door.kind}`)}</Badge>
          <span className="text-muted-foreground" title={t('sharedDoors.onLock')}>
            {formatNumber(door.credentials.onLock)}
          </span>
          {door.credentials.pending > 0 && (
            <Badge variant="outline" title={t('sharedDoors.pending')}>
              {formatNumber(door.credentials.pending)}
            </Badge>
          )}
          {door.credentials.failed > 0 && (
            <Badge variant="destructive" title={t('sharedDoors.failed')}>
              {formatNumber(door.credentials.failed)}
            </Badge>
          )}
        </div>
      ))}
    </section>
  );
}

/** The shared doors a stay opens, with where its codes and faces stand with each door. */
export function StaySharedDoors({ stayId }: { stayId: number }) {
  const { t } = useTranslation();
  const doors = useQuery(sharedQueries.staySharedDoors(stayId));
  if (!doors.data) return null;
  if (!doors.data.doors.length) return <p className="text-muted-foreground text-sm">{t('sharedDoors.noDoors')}</p>;
  const stateText = (state: string) =>
    state === 'on_lock' ? t('sharedDoors.onLock') : state === 'failed' ? t('sharedDoors.failed') : t('sharedDoors.pending');
  return (
    <section aria-label={t('sharedDoors.stayDoors')} data-testid="stay-shared-doors">
      <h3 className="text-sm font-medium">{t('sharedDoors.stayDoors')}</h3>
      <ul className="mt-1 space-y-1 text-sm">
        {doors.data.doors.map((door) => (
          <li key={door.lockId} className="flex flex-wrap items-center gap-1.5">
            <span>{door.name}</span>
            <Badge variant="secondary">{t(`sharedDoors.kinds.${door.kind}`)}</Badge>
            {door.credentials.map((c) => (
              <Badge key={`${c.kind}-${c.id}`} variant={c.deliveryState === 'failed' ? 'destructive' : 'outline'}>
                {stateText(c.deliveryState)}
              </Badge>
            ))}
          </li>
        ))}
      </ul>
    </section>
  );
}
