import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { isFeedUrl } from '@console/shared';
import { FormError } from '@/components/form-error';
import { PageHeader } from '@/components/list-page';
import { LoadError, failedQuery } from '@/components/load-error';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader } from '@/components/ui/card';
import { FormField, fieldControlProps } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { NativeSelect, NativeSelectOption } from '@/components/ui/native-select';
import { appErrorOf } from '@/lib/api-errors';
import { formatDate, formatDateTime } from '@/lib/format';
import { useHotelSettings } from '@/lib/hotel-settings';
import { toast } from '@/lib/toast';
import { trpcClient } from '@/lib/trpc';
import { feedQueries, invalidateExportUrls, invalidateFeeds } from './api';

type Feed = Awaited<ReturnType<typeof trpcClient.feed.list.query>>[number];

/** What a feed's error code says (`http_503` is "HTTP error 503"). */
function useErrorText() {
  const { t } = useTranslation();
  return (code: string | null) => {
    if (!code) return null;
    const http = /^http_(\d{3})$/.exec(code);
    if (http) return t('feeds.errors.http', { status: http[1] });
    // `private_address` is what a refused address was called before the guarded fetch (decision 041).
    const known = code === 'private_address' ? 'address_refused' : code;
    return ['timeout', 'network', 'unparsable', 'too_large', 'address_refused'].includes(known) ? t(`feeds.errors.${known}`) : t('feeds.errors.unknown');
  };
}

/**
 * `/room/calendarFeeds` (issue 20 §1): the hotel's channel calendars with their state (last read,
 * error, conflicts, an empty answer waiting for confirmation), add, edit, delete, read now; and a
 * room's export address to give to the channels. Managers (room.manage).
 */
export function CalendarFeedsPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const feeds = useQuery(feedQueries.list());
  const [editing, setEditing] = useState<Feed | 'new' | null>(null);
  const refresh = () => void invalidateFeeds(queryClient);

  return (
    <div className="space-y-6" data-testid="calendar-feeds-page">
      <PageHeader
        title={t('feeds.title')}
        isBusy={feeds.isFetching}
        actions={
          <Button onClick={() => setEditing('new')} data-testid="feed-add">
            {t('feeds.add')}
          </Button>
        }
      />
      <p className="text-muted-foreground text-sm">{t('feeds.description')}</p>
      <LoadError query={failedQuery(feeds)} what={t('feeds.what')} />
      {editing && <FeedForm feed={editing === 'new' ? null : editing} onDone={() => (setEditing(null), refresh())} />}
      {feeds.data?.length === 0 && <p data-testid="feeds-empty">{t('feeds.empty')}</p>}
      <ul className="space-y-3" data-testid="feeds-list">
        {feeds.data?.map((feed) => (
          <li key={feed.id}>
            <FeedCard feed={feed} onEdit={() => setEditing(feed)} onChanged={refresh} />
          </li>
        ))}
      </ul>
      <RoomExport />
    </div>
  );
}

function FeedCard({ feed, onEdit, onChanged }: { feed: Feed; onEdit: () => void; onChanged: () => void }) {
  const { t } = useTranslation();
  const { timeZone } = useHotelSettings();
  const errorText = useErrorText();
  const [error, setError] = useState<unknown>(null);
  const readNow = useMutation({
    mutationFn: () => trpcClient.feed.readNow.mutate({ feedId: feed.id }),
    onSuccess: (r) => {
      setError(null);
      if (r.read.ok) toast.success(t('feeds.readResult', { created: r.read.created, moved: r.read.moved, cancelled: r.read.cancelled }));
      if (r.read.ok && r.read.skipped > 0) toast.warning(t('feeds.readSkipped', { count: r.read.skipped }));
      onChanged();
    },
    onError: setError,
  });
  const confirmEmpty = useMutation({ mutationFn: () => trpcClient.feed.confirmEmpty.mutate({ feedId: feed.id }), onSuccess: onChanged, onError: setError });
  const remove = useMutation({
    mutationFn: async () => {
      if (!window.confirm(t('feeds.deleteConfirm', { label: feed.label }))) return;
      await trpcClient.feed.delete.mutate({ feedId: feed.id, confirm: true });
    },
    onSuccess: onChanged,
    onError: setError,
  });
  const state = feed.emptyPending ? 'empty' : feed.lastError ? 'failed' : feed.lastReadAt ? 'ok' : 'new';
  const conflicts = feed.conflicts.filter((c) => c.state === 'conflict' || c.state === 'duplicate');
  const inHouse = feed.conflicts.filter((c) => c.state === 'moved_in_house' || c.state === 'gone_in_house');
  const report = feed.lastReadReport;
  return (
    <Card data-testid={`feed-${feed.id}`}>
      <CardHeader className="flex flex-row flex-wrap items-center gap-2">
        <strong>{feed.label}</strong>
        <span className="text-muted-foreground">{feed.roomName ?? feed.groupName}</span>
        <Badge variant={state === 'ok' ? 'secondary' : state === 'new' ? 'outline' : 'destructive'} data-testid="feed-state">
          {t(`feeds.status.${state}`)}
        </Badge>
      </CardHeader>
      <CardContent className="space-y-2 text-sm">
        <p className="break-all font-mono text-xs" dir="ltr">
          {feed.url}
        </p>
        <dl className="grid grid-cols-2 gap-x-4 gap-y-1 sm:grid-cols-4">
          <dt className="text-muted-foreground">{t('feeds.lastRead')}</dt>
          <dd>{feed.lastReadAt ? formatDateTime(String(feed.lastReadAt), timeZone) : t('feeds.never')}</dd>
          <dt className="text-muted-foreground">{t('feeds.booked')}</dt>
          <dd data-testid="feed-booked">{feed.booked}</dd>
          <dt className="text-muted-foreground">{t('feeds.events')}</dt>
          <dd data-testid="feed-events">{feed.lastEventCount ?? '–'}</dd>
          <dt className="text-muted-foreground">{t('feeds.every')}</dt>
          <dd>{feed.everyMinutes}</dd>
        </dl>
        {feed.lastError && (
          <p className="text-destructive" role="status" data-testid="feed-error">
            {errorText(feed.lastError)}
          </p>
        )}
        {feed.emptyPending && (
          <p className="text-destructive" role="status" data-testid="feed-empty-pending">
            {t('feeds.emptyPending', { count: feed.booked })}
          </p>
        )}
        {conflicts.length > 0 && (
          <div data-testid="feed-conflicts">
            <strong>{t('feeds.conflicts')}</strong>
            <ul className="list-disc ps-5">
              {conflicts.map((c) => (
                <li key={`${c.uid}-${c.startsAt}`}>
                  {c.outOfOrder
                    ? t(c.outOfOrder.kind === 'out_of_service' ? 'feeds.conflictOutOfService' : 'feeds.conflictOutOfOrder', {
                        reference: c.reference,
                        start: formatDateTime(String(c.startsAt), timeZone),
                        end: formatDateTime(String(c.endsAt), timeZone),
                        room: c.outOfOrder.roomName,
                        from: formatDate(c.outOfOrder.startDate),
                        to: formatDate(c.outOfOrder.endDate),
                        reason: c.outOfOrder.reason,
                      })
                    : t(c.state === 'duplicate' ? 'feeds.duplicate' : 'feeds.conflict', {
                        reference: c.reference,
                        from: formatDateTime(String(c.startsAt), timeZone),
                        to: formatDateTime(String(c.endsAt), timeZone),
                      })}
                </li>
              ))}
            </ul>
          </div>
        )}
        {report && report.roomChanges.length > 0 && (
          <div data-testid="feed-room-changes">
            <strong>{t('feeds.roomChangesTitle')}</strong>
            <ul className="list-disc ps-5">
              {report.roomChanges.map((c) => (
                <li key={c.reference}>{t('feeds.roomChange', { reference: c.reference, from: c.fromRoom, to: c.toRoom })}</li>
              ))}
            </ul>
          </div>
        )}
        {report && report.skippedCount > 0 && (
          <div role="status" data-testid="feed-skipped">
            <strong>{t('feeds.skippedTitle')}</strong>
            <ul className="list-disc break-all ps-5">
              {report.skipped.map((e, i) => (
                <li key={`${e.uid}-${i}`}>{t('feeds.skippedItem', { uid: e.uid || t('feeds.noUid'), reason: t(`feeds.skipReason.${e.reason}`) })}</li>
              ))}
            </ul>
            {report.skippedCount > report.skipped.length && <p>{t('feeds.skippedMore', { count: report.skippedCount - report.skipped.length })}</p>}
          </div>
        )}
        {inHouse.length > 0 && (
          <div data-testid="feed-in-house-changes">
            <strong>{t('feeds.inHouseChanges')}</strong>
            <ul className="list-disc ps-5">
              {inHouse.map((c) => (
                <li key={c.uid}>
                  {t(c.state === 'gone_in_house' ? 'feeds.goneInHouse' : 'feeds.movedInHouse', {
                    reference: c.reference,
                    from: formatDateTime(String(c.startsAt), timeZone),
                    to: formatDateTime(String(c.endsAt), timeZone),
                  })}
                </li>
              ))}
            </ul>
          </div>
        )}
        <FormError error={error} />
        <div className="flex flex-wrap gap-2">
          <Button size="sm" onClick={() => readNow.mutate()} disabled={readNow.isPending} data-testid="feed-read-now">
            {t('feeds.readNow')}
          </Button>
          {feed.emptyPending && (
            <Button size="sm" variant="destructive" onClick={() => confirmEmpty.mutate()} disabled={confirmEmpty.isPending} data-testid="feed-confirm-empty">
              {t('feeds.confirmEmpty')}
            </Button>
          )}
          <Button size="sm" variant="outline" onClick={onEdit}>
            {t('feeds.edit')}
          </Button>
          <Button size="sm" variant="outline" onClick={() => remove.mutate()} disabled={remove.isPending} data-testid="feed-delete">
            {t('feeds.delete')}
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}

function FeedForm({ feed, onDone }: { feed: Feed | null; onDone: () => void }) {
  const { t } = useTranslation();
  const rooms = useQuery(feedQueries.rooms());
  const groups = useQuery(feedQueries.groups());
  const [target, setTarget] = useState(feed ? (feed.roomId ? `room:${feed.roomId}` : `group:${feed.groupId}`) : '');
  const [label, setLabel] = useState(feed?.label ?? '');
  const [url, setUrl] = useState(feed?.url ?? '');
  const [every, setEvery] = useState(String(feed?.everyMinutes ?? 15));
  const [shown, setShown] = useState(false);
  const save = useMutation({
    mutationFn: () => {
      const common = { label: label.trim(), url: url.trim(), everyMinutes: Number(every) };
      if (feed) return trpcClient.feed.edit.mutate({ feedId: feed.id, ...common });
      const [kind, id] = target.split(':');
      return trpcClient.feed.add.mutate({ ...(kind === 'room' ? { roomId: Number(id) } : { groupId: Number(id) }), ...common });
    },
    onSuccess: onDone,
  });
  const fields = appErrorOf(save.error)?.fields ?? {};
  const urlError = shown && !isFeedUrl(url.trim()) ? t('feeds.validation.urlInvalid') : fields.url ? t(fields.url) : undefined;
  const labelError = shown && !label.trim() ? t('feeds.validation.labelRequired') : undefined;
  const targetError = shown && !feed && !target ? t('feeds.validation.roomOrGroup') : undefined;
  const roomItems = (rooms.data as { items?: { id: number; name: string }[] } | undefined)?.items ?? [];
  const groupItems = (groups.data as { id: number; name: string }[] | { items?: { id: number; name: string }[] } | undefined) ?? [];
  const groupList = Array.isArray(groupItems) ? groupItems : (groupItems.items ?? []);
  return (
    <Card>
      <CardContent className="pt-6">
        <form
          className="grid gap-2 sm:grid-cols-2"
          data-testid="feed-form"
          onSubmit={(e) => {
            e.preventDefault();
            setShown(true);
            if (!isFeedUrl(url.trim()) || !label.trim() || (!feed && !target)) return;
            save.mutate();
          }}
        >
          {!feed && (
            <FormField id="feed-target" label={`${t('feeds.room')} / ${t('feeds.group')}`} error={targetError}>
              <NativeSelect
                value={target}
                onChange={(e) => setTarget(e.target.value)}
                wrapperClassName="w-full"
                {...fieldControlProps('feed-target', targetError)}
              >
                <NativeSelectOption value="">{t('feeds.chooseRoom')}</NativeSelectOption>
                <optgroup label={t('feeds.room')}>
                  {roomItems.map((r) => (
                    <NativeSelectOption key={r.id} value={`room:${r.id}`}>
                      {r.name}
                    </NativeSelectOption>
                  ))}
                </optgroup>
                <optgroup label={t('feeds.group')}>
                  {groupList.map((g) => (
                    <NativeSelectOption key={g.id} value={`group:${g.id}`}>
                      {g.name}
                    </NativeSelectOption>
                  ))}
                </optgroup>
              </NativeSelect>
            </FormField>
          )}
          <FormField id="feed-label" label={t('feeds.label')} error={labelError}>
            <Input
              value={label}
              maxLength={64}
              placeholder="Airbnb"
              onChange={(e) => setLabel(e.target.value)}
              {...fieldControlProps('feed-label', labelError)}
            />
          </FormField>
          <FormField id="feed-url" label={t('feeds.url')} error={urlError} className="sm:col-span-2">
            <Input dir="ltr" type="url" value={url} maxLength={2048} onChange={(e) => setUrl(e.target.value)} {...fieldControlProps('feed-url', urlError)} />
          </FormField>
          <FormField id="feed-every" label={t('feeds.every')}>
            <Input id="feed-every" type="number" min={5} max={1440} value={every} onChange={(e) => setEvery(e.target.value)} />
          </FormField>
          <FormError error={save.error} className="sm:col-span-2" />
          <div className="flex gap-2 sm:col-span-2">
            <Button type="submit" disabled={save.isPending} data-testid="feed-save">
              {t('feeds.save')}
            </Button>
            <Button type="button" variant="outline" onClick={onDone}>
              {t('feeds.cancel')}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}

function RoomExport() {
  const { t } = useTranslation();
  const rooms = useQuery(feedQueries.rooms());
  const roomItems = (rooms.data as { items?: { id: number; name: string }[] } | undefined)?.items ?? [];
  const [roomId, setRoomId] = useState<number | null>(null);
  const link = useQuery(feedQueries.exportUrl(roomId));
  const queryClient = useQueryClient();
  const regenerate = useMutation({
    mutationFn: () => trpcClient.feed.regenerateExport.mutate({ roomId: roomId! }),
    onSuccess: () => void invalidateExportUrls(queryClient),
  });
  const address = link.data ? (link.data.url ?? `${window.location.origin}${link.data.path}`) : '';
  return (
    <Card data-testid="feed-export">
      <CardHeader>
        <strong>{t('feeds.exportTitle')}</strong>
        <p className="text-muted-foreground text-sm">{t('feeds.exportHint')}</p>
      </CardHeader>
      <CardContent className="space-y-2">
        <NativeSelect aria-label={t('feeds.chooseRoom')} value={roomId ?? ''} onChange={(e) => setRoomId(e.target.value ? Number(e.target.value) : null)}>
          <NativeSelectOption value="">{t('feeds.chooseRoom')}</NativeSelectOption>
          {roomItems.map((r) => (
            <NativeSelectOption key={r.id} value={r.id}>
              {r.name}
            </NativeSelectOption>
          ))}
        </NativeSelect>
        {address && (
          <div className="flex flex-wrap items-center gap-2">
            <Input readOnly dir="ltr" value={address} aria-label={t('feeds.exportTitle')} className="font-mono text-xs" data-testid="feed-export-url" />
            <Button size="sm" variant="outline" onClick={() => void navigator.clipboard.writeText(address).then(() => toast.success(t('feeds.copied')))}>
              {t('feeds.copy')}
            </Button>
            <Button size="sm" variant="outline" onClick={() => regenerate.mutate()} disabled={regenerate.isPending}>
              {t('feeds.regenerate')}
            </Button>
          </div>
        )}
        <LoadError query={failedQuery(link)} what={t('feeds.exportTitle')} />
      </CardContent>
    </Card>
  );
}
