import type { FastifyBaseLogger } from 'fastify';
import type { TAuditJob, TAuditNames, TLanguageHeader, TPermission, TRole } from '@console/shared';
import type { TConfig } from './config';
import type { Pool } from 'pg';
import type { TPrisma } from './db/client';
import type { DesCodec } from './infra/des';
import type { FileStore } from './infra/file-store';
import type { Translator } from './infra/i18n';
import type { LockCloud } from './infra/locks';
import type { Redis } from './infra/redis';
import type { SmsSender } from './infra/sms';
import type { Queues } from './jobs/queues';

/** Everything a service may use; built once in main.ts (or by a test) and passed down. */
export interface Deps {
  config: TConfig;
  /** The database the pool connects to (DATABASE_URL, or the embedded PostgreSQL's): for work run on another thread. */
  databaseUrl: string;
  prisma: TPrisma;
  /** The pool the Prisma client uses, for the few hot reads written in plain SQL (decision 019). */
  pool: Pool;
  redis: Redis;
  log: FastifyBaseLogger;
  i18n: Translator;
  des: DesCodec;
  queues: Queues;
  sms: SmsSender;
  /** Where pictures, face photos and exports live, the same for every process of the install (decision 024). */
  files: FileStore;
  /**
   * This process among the install's (`server@host:pid`, `worker@host:pid`): the name its job
   * workers give BullMQ, which records it on each job they run (`processedBy`).
   */
  instance: string;
  /**
   * The lock cloud of the install (LOCK_PROVIDER: TTLock's developer application, or the simulator),
   * which each hotel's lock accounts speak through; null when none is configured: credentials then
   * stay pending.
   */
  locks: LockCloud | null;
  /** Namespaces a Redis key under REDIS_PREFIX. */
  key(...parts: (string | number)[]): string;
}

/** Who is asking and from where; every face (web, tRPC, legacy, jobs) fills it in. */
export interface RequestMeta {
  ip: string;
  userAgent?: string;
  requestId: string;
  lang: TLanguageHeader;
  /** Set when a background job acts (the audit log names the job as the actor, by its automation: AUDIT_JOBS). */
  job?: TAuditJob;
  /** What a job acts for, named as it is now (the calendar feed a `feed.read` job reads): kept in its audit rows. */
  actorNames?: TAuditNames;
  /** The face the request came through, as the audit log records it. */
  channel?: 'console' | 'legacy' | 'gateway' | 'job' | 'key_page' | 'api';
}

/** A signed-in account working in one hotel. */
export interface Actor {
  sessionId: number;
  accountId: number;
  hotelId: number;
  /** IANA time zone of the hotel. */
  timeZone: string;
  /** ISO 4217 currency of the hotel; amounts are integers in its minor unit. */
  currency: string;
  membershipId: number;
  /** False when the membership may manage only the rooms listed in MembershipRoom. */
  allRooms: boolean;
  role: TRole;
  permissions: ReadonlySet<TPermission>;
  apiKeyAuth: boolean;
  /** Set when a third-party API key acts (no session, no account of its own: audited as the key). */
  apiKeyId?: number;
}

export interface ServiceContext {
  deps: Deps;
  meta: RequestMeta;
}

export interface AuthedContext extends ServiceContext {
  actor: Actor;
}

/**
 * The context of a background job: no account, the job named in the audit log (by its automation,
 * `AUDIT_JOBS`; `actorNames`: what it acts for, as the calendar feed a feed's read names).
 */
export function jobContext(deps: Deps, job: TAuditJob, requestId: string, actorNames?: TAuditNames): ServiceContext {
  return { deps, meta: { ip: 'job', requestId, lang: 'zh-CN', job, channel: 'job', ...(actorNames ? { actorNames } : {}) } };
}
