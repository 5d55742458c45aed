import { z } from 'zod';
import { ZOk } from './common';

export const ZCustomerDto = z.object({
  id: z.number(),
  nickname: z.string(),
  mobile: z.string().nullable(),
  email: z.string().nullable(),
  avatar: z.string().nullable(),
  registeredAt: z.string(),
  frozen: z.boolean(),
  frozenAt: z.string().nullable(),
});
export type TCustomerDto = z.infer<typeof ZCustomerDto>;

export const ZCustomerDetailDto = z.object({
  stayCount: z.number(),
  activeCredentialCount: z.number(),
  activeSessionCount: z.number(),
  ...ZCustomerDto.shape,
});
export type TCustomerDetailDto = z.infer<typeof ZCustomerDetailDto>;

export const ZCustomerListOutput = z.object({ items: z.array(ZCustomerDto), total: z.number(), page: z.number(), pageSize: z.number() });
export const ZCustomerGetOutput = ZCustomerDetailDto;
export const ZCustomerSetFrozenOutput = ZCustomerDto;
export const ZCustomerDeleteOutput = ZOk;
