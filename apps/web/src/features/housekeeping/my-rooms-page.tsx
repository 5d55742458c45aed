import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '@/components/list-page';
import { LoadError, failedQuery } from '@/components/load-error';
import { RefreshButton } from '@/components/refresh-button';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { currentLanguage } from '@/lib/language';
import { toast } from '@/lib/toast';
import { trpc } from '@/lib/trpc';
import { housekeepingKey, housekeepingQueries, uploadHousekeepingPhoto, type HousekeepingTask } from './api';
import { TaskBadges } from './task-badges';
import { RoomCode, TaskTimes } from './task-key';

/**
 * `/housekeeping/mine`, the attendant's phone (issue 28 §2): their rooms of the day in the order
 * given, each with big buttons: start, done, needs maintenance (a note and a photo), do not
 * disturb. A failed inspection brings the room back here with the supervisor's reason.
 */
export function MyRoomsPage() {
  const { t } = useTranslation();
  const query = useQuery(housekeepingQueries.myRooms());
  const data = query.data;
  return (
    <div className="mx-auto max-w-md space-y-3" data-testid="my-rooms-page">
      <PageHeader
        title={t('housekeeping.myRooms')}
        isBusy={query.isFetching && !query.isLoading}
        actions={<RefreshButton onRefresh={query.refetch} fetching={query.isFetching} />}
      />
      {data?.shift && <p className="text-muted-foreground text-sm">{t('housekeeping.yourShift', { start: data.shift.start, end: data.shift.end })}</p>}
      {query.isError && <LoadError query={failedQuery(query)} what={t('housekeeping.what')} />}
      {data?.tasks.length === 0 && <p data-testid="my-rooms-empty">{t('housekeeping.noRoomsYet')}</p>}
      <ol className="space-y-3">
        {data?.tasks.map((task, i) => (
          <MyTask key={task.id} task={task} index={i + 1} roomKey={data.keys.find((k) => k.roomId === task.roomId) ?? null} />
        ))}
      </ol>
    </div>
  );
}

function MyTask({ task, index, roomKey }: { task: HousekeepingTask; index: number; roomKey: Parameters<typeof RoomCode>[0]['roomKey'] }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [reporting, setReporting] = useState(false);
  const [note, setNote] = useState(task.note);
  const [photo, setPhoto] = useState<string | null>(task.photo);
  const [uploading, setUploading] = useState(false);
  const step = useMutation(
    trpc.housekeeping.step.mutationOptions({
      meta: { showsErrors: true },
      onSuccess: (done) => {
        toast.success(t(`housekeeping.stepDone.${done.status}`, { room: done.roomName, defaultValue: t('common.operationSucceeded') }));
        setReporting(false);
        void queryClient.invalidateQueries({ queryKey: housekeepingKey() });
      },
    }),
  );
  const big = 'h-14 text-base';
  const isInspection = task.kind === 'inspection';
  const finished = task.status === 'done' || task.status === 'inspected';
  return (
    <li
      className="space-y-3 rounded-xl border p-4"
      data-testid={`my-task-${task.roomName}`}
      aria-label={t('housekeeping.taskLabel', {
        room: task.roomName,
        kind: t(`housekeeping.kind.${task.kind}`),
        status: t(`housekeeping.status.${task.status}`),
      })}
    >
      <div className="flex items-center justify-between gap-2">
        {/*
          The place in the round and the room's name apart (not "1." before "7201" in one run of text,
          which right to left read as the number 1.7201); the list itself tells a screen reader the order.
        */}
        <span className="flex items-center gap-2">
          <span
            aria-hidden
            className="bg-muted text-muted-foreground grid size-7 shrink-0 place-items-center rounded-full text-sm font-semibold"
            data-testid="place-in-round"
          >
            {index}
          </span>
          <bdi className="text-2xl font-bold">{task.roomName}</bdi>
        </span>
        <TaskBadges task={task} />
      </div>
      <RoomCode roomKey={roomKey} />
      <TaskTimes task={task} />
      {task.status === 'failed' && task.failReason && (
        <p className="text-destructive font-medium" data-testid="my-task-reason">
          {t('housekeeping.failReason', { reason: task.failReason })}
        </p>
      )}
      {!isInspection && !finished && !reporting && (
        <div className="grid grid-cols-2 gap-2">
          {task.status !== 'in_progress' && (
            <Button className={big} onClick={() => step.mutate({ taskId: task.id, step: 'start' })} disabled={step.isPending} data-testid="my-start">
              {t('housekeeping.start')}
            </Button>
          )}
          <Button className={big} onClick={() => step.mutate({ taskId: task.id, step: 'done' })} disabled={step.isPending} data-testid="my-done">
            {t('housekeeping.done')}
          </Button>
          <Button className={big} variant="outline" onClick={() => setReporting(true)} data-testid="my-maintenance">
            {t('housekeeping.needsMaintenance')}
          </Button>
          <Button
            className={big}
            variant="secondary"
            onClick={() => step.mutate({ taskId: task.id, step: 'do_not_disturb' })}
            disabled={step.isPending}
            data-testid="my-dnd"
          >
            {t('housekeeping.doNotDisturb')}
          </Button>
        </div>
      )}
      {reporting && (
        <form
          className="space-y-2"
          onSubmit={(e) => {
            e.preventDefault();
            step.mutate({ taskId: task.id, step: 'needs_maintenance', note, photo });
          }}
        >
          <Label className="flex flex-col items-start gap-1">
            <span>{t('housekeeping.note')}</span>
            <Input value={note} maxLength={500} onChange={(e) => setNote(e.target.value)} data-testid="my-note" />
          </Label>
          <Label className="flex flex-col items-start gap-1">
            <span>{t('housekeeping.photo')}</span>
            <Input
              type="file"
              accept="image/png,image/jpeg,image/webp,image/gif"
              capture="environment"
              disabled={uploading}
              onChange={async (e) => {
                const file = e.target.files?.[0];
                if (!file) return;
                setUploading(true);
                const answer = await uploadHousekeepingPhoto(file, currentLanguage().header);
                setUploading(false);
                if ('url' in answer) setPhoto(answer.url);
                else toast.error(answer.error || t('common.operationFailed'));
              }}
            />
          </Label>
          {photo && <img src={photo} alt={t('housekeeping.photo')} className="max-h-40 rounded" />}
          <div className="grid grid-cols-2 gap-2">
            <Button className={big} type="submit" disabled={step.isPending || uploading} data-testid="my-maintenance-send">
              {t('housekeeping.report')}
            </Button>
            <Button className={big} type="button" variant="outline" onClick={() => setReporting(false)}>
              {t('common.cancel')}
            </Button>
          </div>
        </form>
      )}
    </li>
  );
}
