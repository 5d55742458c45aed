import { databaseConstraint } from './errors';

/**
 * The one way a write keyed by the client's request id (`idempotencyKey`, `requestId`) happens at
 * most once, however often and however simultaneously the request is sent:
 * - `find` answers what the id already made (null: nothing yet, or no id was sent); it refuses
 *   (CONFLICT) an id that was used for something else;
 * - otherwise `write` runs; when it fails on the database (the unique index on the id: a copy of the
 *   same request won the race), what that copy made is the answer; any other failure passes.
 * The write itself looks the id up again under its lock when it can (a check-in under its room's).
 */
export async function idempotent<T>(find: () => Promise<T | null>, write: () => Promise<T>): Promise<T> {
  const earlier = await find();
  if (earlier !== null) return earlier;
  try {
    return await write();
  } catch (error) {
    if (databaseConstraint(error)) {
      const raced = await find();
      if (raced !== null) return raced;
    }
    throw error;
  }
}
