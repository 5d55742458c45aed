import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import type { HousekeepingTask } from './api';

const VARIANT: Record<HousekeepingTask['status'], 'default' | 'secondary' | 'outline' | 'destructive'> = {
  todo: 'outline',
  in_progress: 'secondary',
  done: 'default',
  needs_maintenance: 'destructive',
  do_not_disturb: 'secondary',
  inspected: 'default',
  failed: 'destructive',
};

/** A task's kind and status, in words (never by colour alone). */
export function TaskBadges({ task }: { task: Pick<HousekeepingTask, 'kind' | 'status' | 'requested'> }) {
  const { t } = useTranslation();
  return (
    <span className="flex flex-wrap gap-1">
      <Badge variant="outline">{t(`housekeeping.kind.${task.kind}`)}</Badge>
      <Badge variant={VARIANT[task.status]} data-testid="task-status" data-status={task.status}>
        {t(`housekeeping.status.${task.status}`)}
      </Badge>
      {task.requested && <Badge variant="secondary">{t('housekeeping.requested')}</Badge>}
    </span>
  );
}
