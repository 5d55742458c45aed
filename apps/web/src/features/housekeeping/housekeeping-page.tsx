import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type DragEvent, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '@/components/list-page';
import { LoadError, failedQuery } from '@/components/load-error';
import { RefreshButton } from '@/components/refresh-button';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { NativeSelect, NativeSelectOption } from '@/components/ui/native-select';
import { toast } from '@/lib/toast';
import { trpc } from '@/lib/trpc';
import { housekeepingKey, housekeepingQueries, type Attendant, type HousekeepingTask } from './api';
import { AttendantCardLine, type WriteCardAtDesk } from './attendant-card';
import { NoAttendants } from './no-attendants';
import { OutOfOrderSection } from './out-of-order-section';
import { HousekeepingSettingsSection } from './settings-section';
import { TaskBadges } from './task-badges';
import { TaskTimes } from './task-key';

const UNASSIGNED = 'none';

/**
 * `/housekeeping`, the supervisor's page (issue 28 §2, docs/housekeeping.md): the day's rooms and
 * tasks in a column per attendant. A room is given by dragging its card onto an attendant, or with
 * the card's "Assign to" list (the keyboard's way), or a whole floor or room group at once; a
 * cleaned room is inspected here (pass, or fail with the reason: back to its attendant). Below, the
 * rooms out of order by dates and the hotel's housekeeping rule (stay-over cleans, day start).
 * Beside each attendant with a shift, her card of the day for locks that take cards only
 * (docs/housekeeping-keys.md "Cards"): its state, and "Write card" on the desk reader.
 */
export function HousekeepingPage({ writeCard }: { writeCard: WriteCardAtDesk }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [day, setDay] = useState<string | undefined>();
  const query = useQuery(housekeepingQueries.day(day));
  const data = query.data;
  const refresh = () => queryClient.invalidateQueries({ queryKey: housekeepingKey() });

  const generate = useMutation(
    trpc.housekeeping.generate.mutationOptions({
      meta: { showsErrors: true },
      onSuccess: (made) => {
        toast.success(t('housekeeping.generated', { count: made.created }));
        void refresh();
      },
    }),
  );
  const assign = useMutation(
    trpc.housekeeping.assign.mutationOptions({
      meta: { showsErrors: true },
      onSuccess: (done) => {
        toast.success(t('housekeeping.assigned', { count: done.assigned }));
        if (done.skipped.length > 0) toast.info(t('housekeeping.skipped', { rooms: done.skipped.join(', ') }));
        void refresh();
      },
    }),
  );

  const giveRoom = (roomId: number, membershipId: number | null) => assign.mutate({ ...(day ? { day } : {}), membershipId, roomIds: [roomId] });

  const onDrop = (membershipId: number | null) => (event: DragEvent) => {
    event.preventDefault();
    const roomId = Number(event.dataTransfer.getData('text/x-room-id'));
    if (roomId > 0) giveRoom(roomId, membershipId);
  };

  const columns: { key: string; title: string; attendant: Attendant | null; tasks: HousekeepingTask[] }[] = data
    ? [
        { key: UNASSIGNED, title: t('housekeeping.unassigned'), attendant: null, tasks: data.tasks.filter((task) => task.assigneeId === null) },
        ...data.attendants.map((a) => ({
          key: String(a.membershipId),
          title: a.name,
          attendant: a,
          tasks: data.tasks.filter((task) => task.assigneeId === a.membershipId).sort((x, y) => x.position - y.position),
        })),
      ]
    : [];

  return (
    <div className="space-y-4" data-testid="housekeeping-page">
      <PageHeader
        title={t('housekeeping.title')}
        isBusy={query.isFetching && !query.isLoading}
        actions={
          <>
            <Label className="flex items-center gap-2">
              <span>{t('housekeeping.day')}</span>
              <Input type="date" value={data?.day ?? day ?? ''} onChange={(e) => setDay(e.target.value || undefined)} className="w-40" data-testid="hk-day" />
            </Label>
            <Button onClick={() => generate.mutate(day ? { day } : {})} disabled={generate.isPending} data-testid="hk-generate">
              {t('housekeeping.generate')}
            </Button>
            <RefreshButton onRefresh={query.refetch} fetching={query.isFetching} />
          </>
        }
      />
      {query.isError && <LoadError query={failedQuery(query)} what={t('housekeeping.what')} />}
      {data && (
        <>
          <AssignByArea
            attendants={data.attendants}
            groups={data.groups}
            tasks={data.tasks}
            pending={assign.isPending}
            onAssign={(input) => assign.mutate({ ...(day ? { day } : {}), ...input })}
          />
          {data.attendants.length === 0 && <NoAttendants />}
          <p className="text-muted-foreground text-sm">{t('housekeeping.dragHint')}</p>
          {data.tasks.length === 0 && <p data-testid="hk-empty">{t('housekeeping.noTasks', { time: data.settings.dayStart })}</p>}
          <div className="grid gap-3 md:grid-cols-2 xl:grid-cols-3">
            {columns.map((column) => (
              <section
                key={column.key}
                aria-labelledby={`hk-col-${column.key}`}
                className="bg-muted/40 min-h-24 rounded-lg border p-3"
                onDragOver={(e) => e.preventDefault()}
                onDrop={onDrop(column.attendant?.membershipId ?? null)}
                data-testid={`hk-column-${column.key}`}
              >
                <h2 id={`hk-col-${column.key}`} className="mb-2 font-semibold">
                  {column.title} <span className="text-muted-foreground text-sm">({column.tasks.length})</span>
                </h2>
                {column.attendant && <ShiftEditor attendant={column.attendant} day={data.day} />}
                {column.attendant && (
                  <AttendantCardLine
                    attendant={column.attendant}
                    day={data.day}
                    card={data.cards.find((c) => c.membershipId === column.attendant!.membershipId)}
                    writeCard={writeCard}
                  />
                )}
                <ul className="space-y-2">
                  {column.tasks.map((task) => (
                    <TaskCard key={task.id} task={task} attendants={data.attendants} onAssign={giveRoom} />
                  ))}
                </ul>
              </section>
            ))}
          </div>
          <OutOfOrderSection rooms={data.rooms} />
          {/* Keyed by what is saved: a change (here or in another tab) starts the form again from it. */}
          <HousekeepingSettingsSection key={JSON.stringify(data.settings)} settings={data.settings} />
        </>
      )}
    </div>
  );
}

/** Every room of a floor or a room group to one attendant, at once. */
function AssignByArea({
  attendants,
  groups,
  tasks,
  pending,
  onAssign,
}: {
  attendants: Attendant[];
  groups: { id: number; name: string }[];
  tasks: HousekeepingTask[];
  pending: boolean;
  onAssign(input: { membershipId: number | null; floor?: number; groupId?: number }): void;
}) {
  const { t } = useTranslation();
  const floors = [...new Set(tasks.map((task) => task.floor).filter((f): f is number => f !== null))].sort((a, b) => a - b);
  const [member, setMember] = useState('');
  const [area, setArea] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!member || !area) return;
    const [kind, value] = area.split(':');
    onAssign({ membershipId: member === UNASSIGNED ? null : Number(member), ...(kind === 'floor' ? { floor: Number(value) } : { groupId: Number(value) }) });
  };
  return (
    <form onSubmit={submit} className="flex flex-wrap items-end gap-2" aria-label={t('housekeeping.assignByArea')}>
      <Label className="flex flex-col items-start gap-1">
        <span>{t('housekeeping.area')}</span>
        <NativeSelect value={area} onChange={(e) => setArea(e.target.value)} data-testid="hk-area">
          <NativeSelectOption value="">{t('housekeeping.chooseArea')}</NativeSelectOption>
          {floors.map((f) => (
            <NativeSelectOption key={`f${f}`} value={`floor:${f}`}>
              {t('housekeeping.floor', { floor: f })}
            </NativeSelectOption>
          ))}
          {groups.map((g) => (
            <NativeSelectOption key={`g${g.id}`} value={`group:${g.id}`}>
              {g.name}
            </NativeSelectOption>
          ))}
        </NativeSelect>
      </Label>
      <Label className="flex flex-col items-start gap-1">
        <span>{t('housekeeping.attendant')}</span>
        <NativeSelect value={member} onChange={(e) => setMember(e.target.value)} data-testid="hk-area-member">
          <NativeSelectOption value="">{t('housekeeping.chooseAttendant')}</NativeSelectOption>
          {attendants.map((a) => (
            <NativeSelectOption key={a.membershipId} value={String(a.membershipId)}>
              {a.name}
            </NativeSelectOption>
          ))}
          <NativeSelectOption value={UNASSIGNED}>{t('housekeeping.unassigned')}</NativeSelectOption>
        </NativeSelect>
      </Label>
      <Button type="submit" variant="secondary" disabled={pending || !member || !area} data-testid="hk-area-assign">
        {t('housekeeping.assignArea')}
      </Button>
    </form>
  );
}

/** One room's task: drag it to an attendant, or choose one; inspect it once it is done. */
function TaskCard({
  task,
  attendants,
  onAssign,
}: {
  task: HousekeepingTask;
  attendants: Attendant[];
  onAssign(roomId: number, membershipId: number | null): void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [failing, setFailing] = useState(false);
  const [reason, setReason] = useState('');
  const inspect = useMutation(
    trpc.housekeeping.inspect.mutationOptions({
      meta: { showsErrors: true },
      onSuccess: (done) => {
        toast.success(done.status === 'inspected' ? t('housekeeping.passed', { room: done.roomName }) : t('housekeeping.failedBack', { room: done.roomName }));
        setFailing(false);
        setReason('');
        void queryClient.invalidateQueries({ queryKey: housekeepingKey() });
      },
    }),
  );
  const canInspect = task.kind === 'inspection' ? task.status !== 'inspected' : task.status === 'done';
  return (
    <li
      draggable
      onDragStart={(e) => e.dataTransfer.setData('text/x-room-id', String(task.roomId))}
      className="bg-background space-y-2 rounded-md border p-2"
      data-testid={`hk-task-${task.roomName}`}
      aria-label={t('housekeeping.taskLabel', {
        room: task.roomName,
        kind: t(`housekeeping.kind.${task.kind}`),
        status: t(`housekeeping.status.${task.status}`),
      })}
    >
      <div className="flex items-center justify-between gap-2">
        <span className="text-lg font-semibold">{task.roomName}</span>
        <TaskBadges task={task} />
      </div>
      <TaskTimes task={task} />
      {task.failReason && task.status === 'failed' && <p className="text-destructive text-sm">{t('housekeeping.failReason', { reason: task.failReason })}</p>}
      {task.note && <p className="text-sm">{task.note}</p>}
      {task.photo && (
        <a href={task.photo} target="_blank" rel="noreferrer" className="text-sm underline">
          {t('housekeeping.photo')}
        </a>
      )}
      <Label className="flex items-center gap-2 text-sm">
        <span>{t('housekeeping.assignTo')}</span>
        <NativeSelect
          value={task.assigneeId === null ? UNASSIGNED : String(task.assigneeId)}
          onChange={(e) => onAssign(task.roomId, e.target.value === UNASSIGNED ? null : Number(e.target.value))}
          data-testid="hk-assign-select"
        >
          <NativeSelectOption value={UNASSIGNED}>{t('housekeeping.unassigned')}</NativeSelectOption>
          {attendants.map((a) => (
            <NativeSelectOption key={a.membershipId} value={String(a.membershipId)}>
              {a.name}
            </NativeSelectOption>
          ))}
        </NativeSelect>
      </Label>
      {canInspect && !failing && (
        <div className="flex gap-2">
          <Button size="sm" onClick={() => inspect.mutate({ taskId: task.id, pass: true })} disabled={inspect.isPending} data-testid="hk-pass">
            {t('housekeeping.pass')}
          </Button>
          <Button size="sm" variant="destructive" onClick={() => setFailing(true)} data-testid="hk-fail">
            {t('housekeeping.fail')}
          </Button>
        </div>
      )}
      {failing && (
        <form
          className="space-y-2"
          onSubmit={(e) => {
            e.preventDefault();
            inspect.mutate({ taskId: task.id, pass: false, reason });
          }}
        >
          <Label className="flex flex-col items-start gap-1 text-sm">
            <span>{t('housekeeping.failReasonLabel')}</span>
            <Input value={reason} onChange={(e) => setReason(e.target.value)} maxLength={500} required data-testid="hk-fail-reason" autoFocus />
          </Label>
          <div className="flex gap-2">
            <Button size="sm" type="submit" variant="destructive" disabled={inspect.isPending || reason.trim() === ''} data-testid="hk-fail-confirm">
              {t('housekeeping.sendBack')}
            </Button>
            <Button size="sm" type="button" variant="outline" onClick={() => setFailing(false)}>
              {t('common.cancel')}
            </Button>
          </div>
        </form>
      )}
    </li>
  );
}

/** An attendant's hours on the day (the rota the keys will follow). */
function ShiftEditor({ attendant, day }: { attendant: Attendant; day: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [start, setStart] = useState(attendant.shift?.start ?? '08:00');
  const [end, setEnd] = useState(attendant.shift?.end ?? '16:00');
  const save = useMutation(
    trpc.housekeeping.setShift.mutationOptions({
      meta: { showsErrors: true },
      onSuccess: () => {
        toast.success(t('housekeeping.shiftSaved', { name: attendant.name }));
        void queryClient.invalidateQueries({ queryKey: housekeepingKey() });
      },
    }),
  );
  return (
    <form
      className="mb-2 flex flex-wrap items-end gap-2 text-sm"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate({ membershipId: attendant.membershipId, day, start, end });
      }}
    >
      <Label className="flex flex-col items-start gap-1">
        <span>{t('housekeeping.shiftStart')}</span>
        <Input type="time" value={start} onChange={(e) => setStart(e.target.value)} className="w-28" />
      </Label>
      <Label className="flex flex-col items-start gap-1">
        <span>{t('housekeeping.shiftEnd')}</span>
        <Input type="time" value={end} onChange={(e) => setEnd(e.target.value)} className="w-28" />
      </Label>
      <Button size="sm" type="submit" variant="outline" disabled={save.isPending}>
        {t('housekeeping.saveShift')}
      </Button>
    </form>
  );
}
