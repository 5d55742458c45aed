import type { Deps } from '../../context';

/** A delivery a receiver took (2xx): its attempt, and what the delivery and its endpoint become. */
export interface Delivered {
  deliveryId: bigint;
  endpointId: number;
  attempt: number;
  url: string;
  headers: Record<string, string>;
  body: string;
  status: number;
  excerpt: string | null;
  startedAt: Date;
  durationMs: number;
  at: Date;
}

interface Waiting {
  row: Delivered;
  resolve(): void;
  reject(error: unknown): void;
}

/** Rows one statement writes at most. */
const MAX_BATCH = 200;

const queues = new WeakMap<object, { waiting: Waiting[]; flushing: boolean }>();

/**
 * Saves a delivered attempt: resolves once it is committed (the job completes only then, so a
 * worker killed before leaves the delivery pending, and it is sent again with the same id).
 * Deliveries saved while a write is under way are written together by the next one, in one
 * statement (group commit): one commit for many deliveries instead of one each, the writes of 16
 * jobs at a time no longer waiting for each other's commits. A batch that fails is written again
 * row by row, so one row's failure is its own job's alone.
 */
export function saveDelivered(deps: Pick<Deps, 'prisma'>, row: Delivered): Promise<void> {
  let queue = queues.get(deps.prisma);
  if (!queue) queues.set(deps.prisma, (queue = { waiting: [], flushing: false }));
  const q = queue;
  return new Promise<void>((resolve, reject) => {
    q.waiting.push({ row, resolve, reject });
    if (!q.flushing) void flush(deps, q);
  });
}

async function flush(deps: Pick<Deps, 'prisma'>, q: { waiting: Waiting[]; flushing: boolean }): Promise<void> {
  q.flushing = true;
  try {
    while (q.waiting.length > 0) {
      const batch = q.waiting.splice(0, MAX_BATCH);
      try {
        await writeDelivered(
          deps,
          batch.map((w) => w.row),
        );
        for (const w of batch) w.resolve();
      } catch (error) {
        if (batch.length === 1) {
          batch[0]!.reject(error);
          continue;
        }
        for (const w of batch) {
          try {
            await writeDelivered(deps, [w.row]);
            w.resolve();
          } catch (own) {
            w.reject(own);
          }
        }
      }
    }
  } finally {
    q.flushing = false;
  }
}

/**
 * One statement, atomic: the attempts logged, the deliveries `succeeded`, and each endpoint's last
 * success, written only when it was failing or its last success is more than a second old (every
 * delivery writing that one row made them queue on it).
 */
async function writeDelivered(deps: Pick<Deps, 'prisma'>, rows: Delivered[]): Promise<void> {
  await deps.prisma.$executeRaw`
    WITH "input" AS (
      SELECT * FROM unnest(${rows.map((r) => r.deliveryId)}::bigint[], ${rows.map((r) => r.endpointId)}::int[], ${rows.map((r) => r.attempt)}::int[],
                           ${rows.map((r) => r.url)}::text[], ${rows.map((r) => JSON.stringify(r.headers))}::jsonb[], ${rows.map((r) => r.body)}::text[],
                           ${rows.map((r) => r.status)}::int[], ${rows.map((r) => r.excerpt)}::text[], ${rows.map((r) => r.startedAt)}::timestamptz[],
                           ${rows.map((r) => r.durationMs)}::int[], ${rows.map((r) => r.at)}::timestamptz[])
        AS r("id", "endpointId", "attempt", "url", "headers", "body", "status", "excerpt", "startedAt", "durationMs", "at")
    ), "attempt" AS (
      INSERT INTO "WebhookAttempt" ("deliveryId", "attempt", "url", "requestHeaders", "requestBody", "responseStatus", "responseExcerpt", "error", "startedAt", "durationMs")
      SELECT r."id", r."attempt", r."url", r."headers", r."body", r."status", r."excerpt", NULL, r."startedAt", r."durationMs"
        FROM "input" r JOIN "WebhookDelivery" d ON d."id" = r."id"
    ), "endpoint" AS (
      UPDATE "WebhookEndpoint" w SET "lastSuccessAt" = e."at", "failingSince" = NULL
        FROM (SELECT "endpointId", max("at") AS "at" FROM "input" GROUP BY "endpointId") e
       WHERE w."id" = e."endpointId" AND (w."failingSince" IS NOT NULL OR w."lastSuccessAt" IS NULL OR w."lastSuccessAt" < e."at" - interval '1 second')
    )
    UPDATE "WebhookDelivery" d SET "attempts" = r."attempt", "lastStatus" = r."status", "lastError" = NULL, "status" = 'succeeded', "nextAttemptAt" = NULL, "deliveredAt" = r."at"
      FROM "input" r WHERE d."id" = r."id"`;
}
