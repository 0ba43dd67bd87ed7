// The response envelope every route speaks.
import { z } from 'zod';
import { ErrorCode } from '../errors.js';

export const ErrorDetailSchema = z.object({ path: z.string(), message: z.string() });

export const ErrorEnvelope = z.object({
  error: z.object({
    code: z.enum(Object.values(ErrorCode) as [ErrorCode, ...ErrorCode[]]),
    message: z.string(),
    details: z.array(ErrorDetailSchema).optional(),
    requestId: z.string(),
  }),
});
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>;

export const ListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(25),
  offset: z.coerce.number().int().min(0).default(0),
});
export type ListQuery = z.infer<typeof ListQuery>;

export const ListMeta = z.object({ total: z.number().int(), limit: z.number().int(), offset: z.number().int() });
export type ListMeta = z.infer<typeof ListMeta>;

export function dataEnvelope<T extends z.ZodType>(data: T) {
  return z.object({ data });
}
