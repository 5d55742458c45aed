/**
 * The data of each queue's jobs, in a module of their own: the queues (jobs/queues.ts, read by the
 * context every module receives) and the modules that make and run the jobs import these types from
 * here, so no import circle runs through the context.
 */
import type { TCredentialKind, TLanguageHeader } from '@console/shared';
import type { TExportFormat, TExportList, TExportScope } from '@console/shared/export';

/** One version of one credential to put on (or take off) its lock (modules/credentials/delivery.ts). */
export interface DeliveryJobData {
  kind: TCredentialKind;
  id: number;
  version: number;
  /** A sweep's one hotel (tests, which share one database between files); every hotel without it. */
  hotelId?: number;
  /** How many times the job asked a platform where an accepted write stands (delivery.ts `awaitDelay`). */
  polls?: number;
}

/** An export to write (modules/export/export.service.ts). */
export interface ExportJobData {
  hotelId: number;
  accountId: number;
  /** The session that asked: the job reads the list as its actor, and fails once it has ended. */
  sessionId: number;
  list: TExportList;
  filters: Record<string, unknown>;
  scope: TExportScope;
  /** The file's format (absent in jobs queued before there was a choice: .xlsx). */
  format?: TExportFormat;
  page: number;
  pageSize: number;
  /** Sanitised, without `.xlsx` or `.csv`. */
  fileName: string;
  lang: TLanguageHeader;
  createdAt: string;
}

/** The transitions of one stay at its times (modules/stays/stay-schedule.ts). */
export interface StayJobData {
  stayId: number;
  /** The stay version the job was scheduled for; a renewal bumps it, making older jobs no-ops. */
  version: number;
  /** A sweep's one hotel (tests, which share one database between files); every hotel without it. */
  hotelId?: number;
  /** How many times the job asked a platform where an accepted write stands (delivery.ts `awaitDelay`). */
  polls?: number;
}

/** An attendant's keys of a hotel day brought in line with the rota (`sync`, at a shift's end), or the rota's sweep (`sweep`). */
export type RotaKeysJobData = { hotelId: number; membershipId: number; day: string } | { sweep: true; hotelId?: number };

/** One guest message to send (modules/messages/send.ts): its row holds everything else. */
export interface GuestMessageJobData {
  messageId: number;
}

/** The calendar feeds' jobs (jobs/feeds.job.ts): `scan` finds the feeds due; `read` reads one. */
export interface FeedJobData {
  hotelId: number;
  feedId: number;
}

/** The one hotel a sweep looks at (tests); a sweep without it looks at every hotel. */
export interface SweepScope {
  hotelId?: number;
}
