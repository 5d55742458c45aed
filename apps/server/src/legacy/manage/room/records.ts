import { z } from 'zod';
import { WHEN_FIELDS_VALID, ZId, ZLocalDate, ZSearch } from '@console/shared';
import type { AuthedContext } from '../../../context';
import { listRecordsByPerson, listUnlockRecords } from '../../../modules/unlock-records/unlock-record.service';
import { sessionAction } from '../action';
import { legacyPage, zLegacyPaging } from '../convert';
import { legacyTime } from '../format';

/**
 * `/manage/room/*` actions of unlock records: a room's (`openHistory`) and by person
 * (`openHistoryByPeople`). Records are codes; legacy clients also get their texts in the
 * request's language.
 */

type RecordDto = Awaited<ReturnType<typeof listUnlockRecords>>['items'][number];

export function legacyRecord(r: RecordDto, ctx: AuthedContext) {
  const t = (key: string) => ctx.deps.i18n.t(ctx.meta.lang, key);
  return {
    id: r.id,
    room_id: r.roomId,
    room_name: r.roomName,
    open_time: legacyTime(r.occurredAt, ctx.actor.timeZone),
    content: r.event,
    content_text: t(`frontDesk.detail.unlockEvents.${r.event}`),
    from: r.source,
    from_text: t(`frontDesk.detail.unlockSources.${r.source}`),
    style: r.style,
    style_text: t(`frontDesk.detail.unlockStyles.${r.style}`),
    success: r.success ? 1 : 0,
    user_name: r.operator,
    credential: r.credential,
    device: r.device,
  };
}

const period = {
  start_date: ZLocalDate.optional(),
  end_date: ZLocalDate.optional(),
};
const periodInOrder = { error: 'validation.endAfterStart', path: ['end_date'], ...WHEN_FIELDS_VALID };

export const roomRecordActions = [
  sessionAction({
    path: 'room/openHistory',
    input: z.object({ ...zLegacyPaging(), room_id: ZId, ...period }).refine((v) => !v.start_date || !v.end_date || v.start_date <= v.end_date, periodInOrder),
    services: [listUnlockRecords],
    fields: { from: 'start_date', to: 'end_date' },
    async handle(ctx, input) {
      const result = await listUnlockRecords(ctx, {
        roomId: input.room_id,
        from: input.start_date,
        to: input.end_date,
        page: input.page,
        pageSize: input.limit,
      });
      return legacyPage(result, (r) => legacyRecord(r, ctx));
    },
  }),

  sessionAction({
    path: 'room/openHistoryByPeople',
    input: z
      .object({
        ...zLegacyPaging(),
        /** The person's name, searched literally. */
        keyword: ZSearch.optional(),
        /** One of our credentials: `password:12`, `face:3`, `card:7`. */
        credential: z.string({ error: 'validation.invalid' }).optional(),
        room_id: ZId.optional(),
        ...period,
      })
      .refine((v) => !v.start_date || !v.end_date || v.start_date <= v.end_date, periodInOrder),
    services: [listRecordsByPerson],
    fields: { person: 'keyword', from: 'start_date', to: 'end_date' },
    async handle(ctx, input) {
      const result = await listRecordsByPerson(ctx, {
        person: input.keyword,
        credential: input.credential,
        roomId: input.room_id,
        from: input.start_date,
        to: input.end_date,
        page: input.page,
        pageSize: input.limit,
      });
      return legacyPage(result, (r) => legacyRecord(r, ctx));
    },
  }),
];
