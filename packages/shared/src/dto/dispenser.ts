import { z } from 'zod';

export const ZCardDispenserDto = z.object({
  id: z.number(),
  deviceId: z.string(),
  name: z.string(),
  stock: z.number(),
  capacity: z.number().nullable(),
  status: z.enum(['online', 'offline', 'empty', 'fault']),
  lastCheckedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type TCardDispenserDto = z.infer<typeof ZCardDispenserDto>;

export const ZDispenserListOutput = z.object({ items: z.array(ZCardDispenserDto) });
export const ZDispenserAddOutput = ZCardDispenserDto;
export const ZDispenserRenameOutput = ZCardDispenserDto;
export const ZDispenserCheckStatusOutput = ZCardDispenserDto;
export const ZDispenserDeleteOutput = z.object({ deleted: z.literal(true) });
