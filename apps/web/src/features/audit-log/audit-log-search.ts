import type * as shared from '@console/shared';
import { LIMITS } from '@console/shared';
import { LOCAL_DATE_REGEX } from '../../lib/shared-constants';
import { int, oneOf, optional, searchSchema, string, withDefault } from '../../lib/url-search';

// The page reads the URL with these (its route does not: the route's part of the code is in every
// page's first download). Written without zod, as the routes' schemas are (lib/url-search.ts); the
// lists are packages/shared's, checked by the compiler (`satisfies`) and audit-log-search.test.ts.

export const AUDIT_ACTOR_TYPES = ['account', 'api_key', 'job', 'anonymous', 'key_link'] as const satisfies typeof shared.AUDIT_ACTOR_TYPES;
export const AUDIT_CHANNELS = ['console', 'legacy', 'gateway', 'job', 'key_page', 'api'] as const satisfies typeof shared.AUDIT_CHANNELS;

/** An action or the start of one, as audit.list takes it (`room`, `room.update`). */
const ACTION = /^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)*$/;

/** The log's filters and page live in the URL, so a reload or a shared link shows the same entries. */
export const auditLogSearchSchema = searchSchema({
  page: withDefault(int({ min: 1 }), 1),
  pageSize: withDefault(int({ min: 1, max: LIMITS.pageSizeMax }), LIMITS.pageSizeDefault),
  actorType: optional(oneOf(AUDIT_ACTOR_TYPES)),
  /** One member (`account:12`) or one API key (`apiKey:3`). */
  actor: optional(string({ pattern: /^(account|apiKey):[1-9]\d{0,9}$/ })),
  action: optional(string({ pattern: ACTION, accept: (v) => v.length <= 64 })),
  entityType: optional(string({ pattern: /^[A-Za-z][A-Za-z0-9_]{0,63}$/ })),
  entityId: optional(string({ pattern: /^[^\s]{1,64}$/ })),
  channel: optional(oneOf(AUDIT_CHANNELS)),
  from: optional(string({ pattern: LOCAL_DATE_REGEX })),
  to: optional(string({ pattern: LOCAL_DATE_REGEX })),
});

/** Values equal to these are left out of the URL. */
export const auditLogSearchDefaults = { page: 1, pageSize: LIMITS.pageSizeDefault } as const;
