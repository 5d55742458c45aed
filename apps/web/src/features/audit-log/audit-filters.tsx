import type { ReactNode } from 'react';
import { X } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { AUDIT_AREAS, AUDIT_ENTITY_TYPES } from '@console/shared';
import { Badge } from '@/components/ui/badge';
import { Label } from '@/components/ui/label';
import { NativeSelect, NativeSelectOption } from '@/components/ui/native-select';
import type { RouterOutputs } from '@/lib/trpc-types';
import type { AuditSearch } from './api';
import { AUDIT_ACTOR_TYPES, AUDIT_CHANNELS } from './audit-log-search';

const ALL = '';

/**
 * The log's selects: the area (or the action chosen from a row, named in words), who acted (by
 * kind, and the hotel's members and API keys), the face it came through and the kind of target.
 */
export function AuditFilters({
  search,
  setSearch,
  isArea,
  actionWords,
  actors,
}: {
  search: AuditSearch;
  setSearch(patch: Partial<AuditSearch>): void;
  isArea: boolean;
  actionWords(action: string): string;
  actors: { data: RouterOutputs['audit']['actors'] | undefined; isLoading: boolean };
}) {
  const { t } = useTranslation();
  const selectField = (id: string, label: string, control: ReactNode) => (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      {control}
    </div>
  );
  return (
    <>
      {selectField(
        'audit-area',
        t('auditLog.filters.area'),
        <NativeSelect
          id="audit-area"
          wrapperClassName="w-44"
          value={isArea ? (search.action ?? ALL) : search.action}
          onChange={(e) => setSearch({ action: e.target.value || undefined, page: 1 })}
          data-testid="audit-area"
        >
          <NativeSelectOption value={ALL}>{t('auditLog.filters.allAreas')}</NativeSelectOption>
          {!isArea && search.action && <NativeSelectOption value={search.action}>{actionWords(search.action)}</NativeSelectOption>}
          {AUDIT_AREAS.map((area) => (
            <NativeSelectOption key={area} value={area}>
              {t(`auditLog.areas.${area}`)}
            </NativeSelectOption>
          ))}
        </NativeSelect>,
      )}
      {selectField(
        'audit-actor-type',
        t('auditLog.filters.actorType'),
        <NativeSelect
          id="audit-actor-type"
          wrapperClassName="w-40"
          value={search.actorType ?? ALL}
          onChange={(e) => setSearch({ actorType: (e.target.value || undefined) as AuditSearch['actorType'], page: 1 })}
          data-testid="audit-actor-type"
        >
          <NativeSelectOption value={ALL}>{t('auditLog.filters.allActorTypes')}</NativeSelectOption>
          {AUDIT_ACTOR_TYPES.map((type) => (
            <NativeSelectOption key={type} value={type}>
              {t(`auditLog.actorTypes.${type}`)}
            </NativeSelectOption>
          ))}
        </NativeSelect>,
      )}
      {selectField(
        'audit-actor',
        t('auditLog.filters.actor'),
        <NativeSelect
          id="audit-actor"
          wrapperClassName="w-48"
          value={search.actor ?? ALL}
          onChange={(e) => setSearch({ actor: e.target.value || undefined, page: 1 })}
          data-testid="audit-actor"
        >
          <NativeSelectOption value={ALL}>{t('auditLog.filters.allActors')}</NativeSelectOption>
          {search.actor && !actors.data && (
            <NativeSelectOption value={search.actor}>{actors.isLoading ? t('common.loading') : search.actor}</NativeSelectOption>
          )}
          {actors.data && actors.data.accounts.length > 0 && (
            <optgroup label={t('auditLog.filters.members')}>
              {actors.data.accounts.map((a) => (
                <NativeSelectOption key={a.id} value={`account:${a.id}`}>
                  {a.name || a.mobile || a.email || `#${a.id}`}
                </NativeSelectOption>
              ))}
            </optgroup>
          )}
          {actors.data && actors.data.apiKeys.length > 0 && (
            <optgroup label={t('auditLog.filters.apiKeys')}>
              {actors.data.apiKeys.map((k) => (
                <NativeSelectOption key={k.id} value={`apiKey:${k.id}`}>
                  {k.revoked ? t('auditLog.revokedKey', { name: k.name }) : k.name}
                </NativeSelectOption>
              ))}
            </optgroup>
          )}
        </NativeSelect>,
      )}
      {selectField(
        'audit-channel',
        t('auditLog.filters.channel'),
        <NativeSelect
          id="audit-channel"
          wrapperClassName="w-44"
          value={search.channel ?? ALL}
          onChange={(e) => setSearch({ channel: (e.target.value || undefined) as AuditSearch['channel'], page: 1 })}
          data-testid="audit-channel"
        >
          <NativeSelectOption value={ALL}>{t('auditLog.filters.allChannels')}</NativeSelectOption>
          {AUDIT_CHANNELS.map((channel) => (
            <NativeSelectOption key={channel} value={channel}>
              {t(`auditLog.channels.${channel}`)}
            </NativeSelectOption>
          ))}
        </NativeSelect>,
      )}
      {selectField(
        'audit-target-type',
        t('auditLog.filters.target'),
        <NativeSelect
          id="audit-target-type"
          wrapperClassName="w-44"
          value={search.entityType ?? ALL}
          onChange={(e) => setSearch({ entityType: e.target.value || undefined, entityId: undefined, page: 1 })}
          data-testid="audit-target-type"
        >
          <NativeSelectOption value={ALL}>{t('auditLog.filters.allTargets')}</NativeSelectOption>
          {search.entityType && !(AUDIT_ENTITY_TYPES as readonly string[]).includes(search.entityType) && (
            <NativeSelectOption value={search.entityType}>{search.entityType}</NativeSelectOption>
          )}
          {AUDIT_ENTITY_TYPES.map((type) => (
            <NativeSelectOption key={type} value={type}>
              {t(`auditLog.targets.${type}`)}
            </NativeSelectOption>
          ))}
        </NativeSelect>,
      )}
    </>
  );
}

export function FilterBadge({ label, clearLabel, onClear, testId }: { label: string; clearLabel: string; onClear(): void; testId: string }) {
  return (
    <Badge variant="secondary" className="gap-1 py-1 text-sm" data-testid={testId}>
      <span dir="auto">{label}</span>
      <button type="button" className="focus-visible:ring-ring ms-1 rounded-sm outline-none focus-visible:ring-2" onClick={onClear} aria-label={clearLabel}>
        <X className="size-3.5" aria-hidden />
      </button>
    </Badge>
  );
}
