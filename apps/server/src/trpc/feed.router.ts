import {
  ZFeedListOutput,
  ZFeedAddOutput,
  ZFeedEditOutput,
  ZFeedDeleteOutput,
  ZFeedReadNowOutput,
  ZFeedConfirmEmptyOutput,
  ZFeedExportUrlOutput,
  ZFeedRegenerateExportOutput,
} from '@console/shared/dto';
import { ZFeedAddInput, ZFeedDeleteInput, ZFeedEditInput, ZFeedIdInput, ZFeedListInput, ZFeedRoomInput } from '@console/shared';
import { addFeed, confirmEmptyFeed, deleteFeed, editFeed, listFeeds, readFeedNow, regenerateExportToken, roomExportUrl } from '../modules/feeds/feed.service';
import { authedProcedure, router } from './init';

/** Channel calendar feeds (Room setup > Calendar feeds) and each room's export link. */
export const feedRouter = router({
  list: authedProcedure
    .input(ZFeedListInput)
    .output(ZFeedListOutput)
    .query(({ ctx, input }) => listFeeds(ctx, input)),
  add: authedProcedure
    .input(ZFeedAddInput)
    .output(ZFeedAddOutput)
    .mutation(({ ctx, input }) => addFeed(ctx, input)),
  edit: authedProcedure
    .input(ZFeedEditInput)
    .output(ZFeedEditOutput)
    .mutation(({ ctx, input }) => editFeed(ctx, input)),
  delete: authedProcedure
    .input(ZFeedDeleteInput)
    .output(ZFeedDeleteOutput)
    .mutation(({ ctx, input }) => deleteFeed(ctx, input)),
  readNow: authedProcedure
    .input(ZFeedIdInput)
    .output(ZFeedReadNowOutput)
    .mutation(({ ctx, input }) => readFeedNow(ctx, input)),
  confirmEmpty: authedProcedure
    .input(ZFeedIdInput)
    .output(ZFeedConfirmEmptyOutput)
    .mutation(({ ctx, input }) => confirmEmptyFeed(ctx, input)),
  exportUrl: authedProcedure
    .input(ZFeedRoomInput)
    .output(ZFeedExportUrlOutput)
    .query(({ ctx, input }) => roomExportUrl(ctx, input)),
  regenerateExport: authedProcedure
    .input(ZFeedRoomInput)
    .output(ZFeedRegenerateExportOutput)
    .mutation(({ ctx, input }) => regenerateExportToken(ctx, input)),
});
