import type { TWebhookEvent } from '@console/shared';
import type { RouterOutputs } from '@/lib/trpc-types';

/** An event's name on the page (its key: the public name with `_` for `.`, i18next's separator). */
export const eventKey = (event: TWebhookEvent) => `webhooks.events.${event.replace('.', '_')}`;

export type Endpoint = RouterOutputs['webhooks']['list']['items'][number];
export type WithSecret = RouterOutputs['webhooks']['create'];
