// copilot-notice: a `warn`-tier call ran at once; every admin of the site is told what, for whom, after reading what,
// and how to undo it (docs/API.md, "The gate's tiers and limits").
import { z } from 'zod';
import { ReadBefore } from '../approvals.js';
import { UndoRef } from '../skills/outcome.js';

export const CopilotNotice = z.object({
  id: z.string(),
  skillName: z.string(),
  arguments: z.unknown(),
  actor: z.object({ id: z.string(), name: z.string() }),
  undo: UndoRef.optional(),
  readBefore: z.array(ReadBefore).optional(),
  createdAt: z.string(),
});
export type CopilotNotice = z.infer<typeof CopilotNotice>;

export const NoticeListResponse = z.object({
  data: z.array(CopilotNotice),
  meta: z.object({ seq: z.number().int().min(0) }),
});
