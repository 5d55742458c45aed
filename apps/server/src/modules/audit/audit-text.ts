import { AUDIT_JOBS, LANGUAGES, auditActionKey, type TLanguageHeader } from '@console/shared';
import type { Translator } from '../../infra/i18n';

/**
 * The audit log in words (issue 27 §11): an entry's action, the automation that acted and its
 * target, as a person reads them, in the reader's language (the request's, an export's). The list
 * (audit-log.ts) and its export (export/audit-source.ts) name entries through this one module; the
 * codes stay in the entry beside the words (filters and history use them).
 *
 * Names come from the rows that still exist (read by `auditTargetNamesSql` as the entry is listed),
 * else from the names the entry kept when it was written (`AuditLog.targetNames`, `actorNames`).
 */

/** What an entry's target is called: read from its rows as it is listed, or kept in the entry. */
export interface AuditTargetParts {
  room?: string;
  group?: string;
  guest?: string;
  /** A calendar feed's label. */
  feed?: string;
  /** The target's own name (a customer's, a reader's, a lock password's holder). */
  name?: string;
  /** A name the system wrote as a code (decision 023: a card key set's "Key set 1"). */
  nameKey?: string;
  nameParams?: Record<string, string | number>;
  /** A card's number. */
  card?: string;
  /** A closed day, or the days of a report. */
  date?: string;
  from?: string;
  to?: string;
}

/** Entity types written in lower case before they were typed (`stay`, `hotel`, `guestMessageTemplate`): named as the others. */
const TYPE_ALIASES: Record<string, string> = { stay: 'Stay', hotel: 'Hotel', guestMessageTemplate: 'GuestMessageTemplate' };
export const canonicalEntityType = (type: string) => TYPE_ALIASES[type] ?? type;

/** Targets that belong to a room and are named with it ("Lock password Ana Silva · Room 108"). */
const IN_A_ROOM = new Set(['LockPassword', 'FaceAuthorization', 'CardIssue', 'LockManager', 'OrderEntry']);

function partsOf(value: unknown): AuditTargetParts {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  const parts: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (typeof v === 'string' && v.trim() !== '') parts[key] = v;
    else if (typeof v === 'number') parts[key] = String(v);
    else if (key === 'nameParams' && typeof v === 'object' && v !== null && !Array.isArray(v)) parts[key] = v;
  }
  return parts as AuditTargetParts;
}

export interface AuditTexts {
  /** An action's label (`stay.accessIssue` -> "Door access issued by rule"); the code itself when this version has none. */
  action(action: string): string;
  /** The automation a job is part of ("Automation (access rules)"), or the calendar feed it read ("Calendar feed Airbnb · Room 109"). */
  job(job: string | null, names: unknown): string;
  /** The target in words ("Stay of room 108 (Ana Silva)", "Access rule of the hotel"); null for an entry without one. */
  target(type: string | null, id: string | null, names: unknown): string | null;
}

/**
 * The texts of the audit log in `lang`. For a screen (`isolate`), in a right-to-left language each
 * name is isolated (U+2068 ... U+2069), so that "Airbnb" or "109 (Sea view)" keep their own order
 * inside the sentence; an export's cells hold the plain text (a spreadsheet searches and filters it).
 */
export function auditTexts(i18n: Translator, lang: TLanguageHeader, options: { isolate: boolean }): AuditTexts {
  const rtl = options.isolate && LANGUAGES.find((l) => l.header === lang)?.dir === 'rtl';
  const iso = (value: string) => (rtl ? `\u2068${value}\u2069` : value);
  const t = (key: string, params?: Record<string, string>) => i18n.t(lang, key, params);
  const kind = (type: string) => (i18n.has(`auditLog.targets.${type}`) ? t(`auditLog.targets.${type}`) : type);
  const numbered = (type: string, id: string | null) => (id ? t('auditLog.named.numbered', { kind: kind(type), id: iso(id) }) : kind(type));

  const feed = (p: AuditTargetParts): string | null => {
    if (!p.feed) return null;
    if (p.room) return t('auditLog.named.feedRoom', { feed: iso(p.feed), room: iso(p.room) });
    if (p.group) return t('auditLog.named.feedGroup', { feed: iso(p.feed), group: iso(p.group) });
    return t('auditLog.named.feed', { feed: iso(p.feed) });
  };
  const ownName = (p: AuditTargetParts): string | undefined => {
    if (p.nameKey && i18n.has(p.nameKey)) return i18n.t(lang, p.nameKey, p.nameParams ?? {});
    return p.name ?? p.card;
  };

  function target(rawType: string, id: string | null, p: AuditTargetParts): string {
    const type = canonicalEntityType(rawType);
    switch (type) {
      case 'Hotel':
        return kind(type);
      case 'Room':
        return p.room ? t('auditLog.named.room', { room: iso(p.room) }) : numbered(type, id);
      case 'RoomGroup':
        return p.group ? t('auditLog.named.group', { group: iso(p.group) }) : numbered(type, id);
      case 'Stay':
      case 'Folio': {
        const key = type === 'Stay' ? 'stay' : 'bill';
        if (!p.room) return numbered(type, id);
        return p.guest ? t(`auditLog.named.${key}Guest`, { room: iso(p.room), guest: iso(p.guest) }) : t(`auditLog.named.${key}`, { room: iso(p.room) });
      }
      case 'AccessRule':
        if (id === 'hotel') return t('auditLog.named.accessRuleHotel');
        return t('auditLog.named.accessRuleGroup', { group: iso(p.group ?? `#${id?.replace(/^group:/, '') ?? ''}`) });
      case 'CalendarFeed':
        return feed(p) ?? numbered(type, id);
      case 'Session':
        return p.name ? t('auditLog.named.session', { name: iso(p.name) }) : numbered(type, id);
      case 'CashierShift':
        return p.name ? t('auditLog.named.shift', { name: iso(p.name) }) : numbered(type, id);
      case 'DayClose':
        if (p.date) return t('auditLog.named.day', { date: iso(p.date) });
        if (p.from && p.to) return t('auditLog.named.days', { from: iso(p.from), to: iso(p.to) });
        return kind(type);
      case 'GuestMessageTemplate': {
        // Its id is `<channel>:<language>` (modules/messages/templates.ts).
        const [channel = '', language = ''] = (id ?? '').split(':');
        const channelText = channel === 'sms' || channel === 'email' ? t(`guestMessages.${channel}`) : channel;
        const languageText = LANGUAGES.find((l) => l.header === language)?.nativeName ?? language;
        return channel ? t('auditLog.named.template', { channel: iso(channelText), language: iso(languageText) }) : kind(type);
      }
      default: {
        const name = ownName(p);
        if (IN_A_ROOM.has(type) && p.room) {
          return name
            ? t('auditLog.named.ofInRoom', { kind: kind(type), name: iso(name), room: iso(p.room) })
            : t('auditLog.named.inRoom', { kind: kind(type), room: iso(p.room) });
        }
        if (name) return t('auditLog.named.of', { kind: kind(type), name: iso(name) });
        return i18n.has(`auditLog.targets.${type}`) ? numbered(type, id) : id ? `${type} #${id}` : type;
      }
    }
  }

  return {
    action: (action) => (i18n.has(auditActionKey(action)) ? t(auditActionKey(action)) : action),
    job(job, names) {
      const automation = job !== null && Object.hasOwn(AUDIT_JOBS, job) ? AUDIT_JOBS[job as keyof typeof AUDIT_JOBS] : 'other';
      return (automation === 'calendarFeed' && feed(partsOf(names))) || t(`auditLog.automation.${automation}`);
    },
    target: (type, id, names) => (type ? target(type, id, partsOf(names)) : null),
  };
}
