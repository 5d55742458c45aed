import { Bot, KeyRound, Link2, UserRound, UserX } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { AUDIT_AREAS, AUDIT_ENTITY_TYPES } from '@console/shared';
import { Badge } from '@/components/ui/badge';
import type { RouterOutputs } from '@/lib/trpc-types';

export type AuditItem = RouterOutputs['audit']['list']['items'][number];

const AREAS: ReadonlySet<string> = new Set(AUDIT_AREAS);
const TARGETS: ReadonlySet<string> = new Set(AUDIT_ENTITY_TYPES);

/** The area of an action (`room` of `room.update`) when the console names it, else null. */
export function areaOf(action: string): string | null {
  const area = action.split('.')[0] ?? '';
  return AREAS.has(area) ? area : null;
}

/**
 * An action in words (its label, from the server in the operator's language), its area beneath.
 * The code stays out of sight: the entry's dialog shows it for whoever needs it.
 */
export function ActionName({ action, label }: { action: string; label: string }) {
  const { t } = useTranslation();
  const area = areaOf(action);
  return (
    <span className="flex flex-col items-start">
      <span className="font-medium" data-testid="audit-action-label">
        {label}
      </span>
      {area && <span className="text-muted-foreground text-xs">{t(`auditLog.areas.${area}`)}</span>}
    </span>
  );
}

const ACTOR_ICONS = { account: UserRound, api_key: KeyRound, job: Bot, anonymous: UserX, key_link: Link2 } as const;

/**
 * Who acted: a member's name and mobile, an API key's name, what a job acted as in words
 * ("Automation (access rules)", "Calendar feed Airbnb · Room 109", from the server), or
 * "anonymous"; beneath, what kind of actor it is.
 */
export function ActorName({ actor }: { actor: AuditItem['actor'] }) {
  const { t } = useTranslation();
  const Icon = ACTOR_ICONS[actor.type];
  const name =
    actor.type === 'anonymous' || actor.type === 'key_link'
      ? t(`auditLog.actorTypes.${actor.type}`)
      : actor.name || actor.mobile || actor.email || (actor.accountId ? `#${actor.accountId}` : t('auditLog.unknownActor'));
  const second =
    actor.type === 'account'
      ? actor.name
        ? actor.mobile || actor.email
        : null
      : actor.type === 'anonymous' || actor.type === 'key_link'
        ? null
        : t(`auditLog.actorTypes.${actor.type}`);
  return (
    <span className="flex items-start gap-2" data-testid="audit-actor" data-type={actor.type}>
      <Icon className="text-muted-foreground mt-0.5 size-4 shrink-0" aria-label={t(`auditLog.actorTypes.${actor.type}`)} role="img" />
      <span className="flex min-w-0 flex-col items-start">
        <span className="truncate" dir="auto" data-testid="audit-actor-name">
          {name}
        </span>
        {second && (
          <span className="text-muted-foreground truncate text-xs tabular-nums" dir="auto">
            {second}
          </span>
        )}
      </span>
    </span>
  );
}

/** What the entry is about, in words ("Stay of room 108 (Ana Silva)", from the server); its kind when it has no words. */
export function TargetName({ target }: { target: AuditItem['target'] }) {
  const { t } = useTranslation();
  if (!target.type) return <span className="text-muted-foreground">—</span>;
  const text = target.label ?? (TARGETS.has(target.type) ? t(`auditLog.targets.${target.type}`) : target.type);
  return <span data-testid="audit-target-label">{text}</span>;
}

/** The face the action came through; entries of before faces were recorded have none. */
export function ChannelBadge({ channel }: { channel: AuditItem['channel'] }) {
  const { t } = useTranslation();
  if (!channel) return <span className="text-muted-foreground">—</span>;
  return (
    <Badge variant={channel === 'console' ? 'secondary' : 'outline'} data-testid="audit-channel-badge" data-channel={channel}>
      {t(`auditLog.channels.${channel}`)}
    </Badge>
  );
}
