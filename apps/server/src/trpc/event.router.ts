import { tracked } from '@trpc/server';
import { z } from 'zod';
import { resolveSessionById } from '../modules/auth/session.service';
import { eventFeed } from '../modules/events/event-feed';
import { authedProcedure, router } from './init';

/**
 * The live feed of the member's hotel (docs/events.md): server-sent events, one per committed
 * change the member may see; `lastEventId` (sent by the client when it reconnects) resumes.
 */
export const eventRouter = router({
  feed: authedProcedure
    .input(
      z
        .object({
          lastEventId: z
            .string()
            .regex(/^[0-9]{1,18}$/)
            .nullish(),
        })
        .optional(),
    )
    .subscription(async function* ({ ctx, input, signal }) {
      const feed = eventFeed(ctx.deps, ctx.actor, {
        lastEventId: input?.lastEventId,
        signal,
        reauthenticate: () => resolveSessionById(ctx.deps, ctx.actor.sessionId, 'web', { touch: false }),
      });
      for await (const event of feed) yield tracked(event.id, event);
    }),
});
