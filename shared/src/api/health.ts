// GET /healthz and GET /readyz: the process is up; its dependencies answer.
import { z } from 'zod';

export const HealthResponse = z.object({ data: z.object({ status: z.literal('ok') }) });
export type HealthResponse = z.infer<typeof HealthResponse>;

export const ReadyResponse = z.object({
  data: z.object({
    status: z.enum(['ready', 'unavailable']),
    /** Each dependency by name (mongo, redis): `ok` or `down`. */
    checks: z.record(z.string(), z.enum(['ok', 'down'])),
  }),
});
export type ReadyResponse = z.infer<typeof ReadyResponse>;
