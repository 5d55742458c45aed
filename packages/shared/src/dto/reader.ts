import { z } from 'zod';

export const ZDeskReaderEnvironment = z.object({
  simulated: z.boolean(),
  urls: z.object({ type1: z.string().optional(), type2: z.string().optional(), type3: z.string().optional() }),
});
export type TDeskReaderEnvironment = z.infer<typeof ZDeskReaderEnvironment>;

export const ZReaderAccountDto = z.object({ id: z.number(), nickname: z.string(), mobile: z.string().nullable() });
export type TReaderAccountDto = z.infer<typeof ZReaderAccountDto>;

export const ZCardReaderDto = z.object({
  id: z.number(),
  deviceId: z.string(),
  serial: z.string(),
  name: z.string(),
  readerType: z.union([z.literal(1), z.literal(3), z.literal(2)]),
  boundAccount: ZReaderAccountDto.nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TCardReaderDto = z.infer<typeof ZCardReaderDto>;

export const ZReaderEnvironmentOutput = ZDeskReaderEnvironment;
export const ZReaderListOutput = z.object({ items: z.array(ZCardReaderDto) });
export const ZReaderMineOutput = ZCardReaderDto.nullable();
export const ZReaderRegisterOutput = ZCardReaderDto;
export const ZReaderRenameOutput = ZCardReaderDto;
export const ZReaderBindOutput = ZCardReaderDto;
export const ZReaderUnbindOutput = ZCardReaderDto;
export const ZReaderDeleteOutput = z.object({ deleted: z.literal(true) });
