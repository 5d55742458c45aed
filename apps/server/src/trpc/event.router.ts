import { tracked } from '@trpc/server';
import { resolveSessionById } from '../modules/auth/session.service';
import { eventFeed, feedInput } from '../modules/events/event-feed';
import { authedProcedure, router } from './init';

/**
 * The live feed of the member's hotel (docs/events.md): server-sent events, each a gathering of the
 * committed changes the member may see (an array, in the order published; decision 043), tracked by
 * the id of its last event; `lastEventId` (sent by the client when it reconnects) resumes.
 */
export const eventRouter = router({
  feed: authedProcedure.input(feedInput).subscription(async function* ({ ctx, input, signal }) {
    const feed = eventFeed(ctx.deps, ctx.actor, {
      lastEventId: input?.lastEventId,
      signal,
      reauthenticate: () => resolveSessionById(ctx.deps, ctx.actor.sessionId, 'web', { touch: false }),
    });
    for await (const events of feed) yield tracked(events[events.length - 1]!.id, events);
  }),
});
