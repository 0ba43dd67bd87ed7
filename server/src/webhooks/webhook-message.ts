// What a delivery sends: the body (json, or Slack's `{ text }`) and its signed headers.
import { createHmac } from 'node:crypto';
import { quotedSkill, type WebhookFormat } from '@lumibase/shared';

/** `sha256=<hex HMAC-SHA256 of "<timestamp>.<raw body>">` — receivers recompute it over the bytes they got. */
export function signWebhook(secret: string, timestamp: number, rawBody: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex')}`;
}

interface ActorLike {
  name?: string;
}
interface ApprovalLike {
  id?: string;
  skillName?: string;
  status?: string;
  arguments?: Record<string, unknown>;
  requestedBy?: ActorLike;
  decidedBy?: ActorLike;
  lastError?: string;
}

function describeArguments(args: Record<string, unknown> | undefined): string {
  const text = JSON.stringify(args ?? {});
  return text.length > 200 ? `${text.slice(0, 197)}...` : text;
}

/** Slack's mrkdwn: `<`, `>` and `&` are the only characters to escape. */
function escapeSlack(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/** One short line naming who asked for what, with a link to the approval's card in the Studio. */
export function slackText(event: string, payload: Record<string, unknown>, studioUrl: string): string {
  const approval = payload.approval as ApprovalLike | undefined;
  if (approval) {
    const card = `${studioUrl}/settings/ai-approvals#approval-${approval.id}`;
    const asked = `*${escapeSlack(approval.requestedBy?.name ?? 'Someone')}* asked the Copilot to run ${escapeSlack(quotedSkill(approval.skillName ?? ''))} ${escapeSlack(describeArguments(approval.arguments))}`;
    const link = `<${card}|Open the approval>`;
    if (event === 'approval-created') return `${asked}: waiting for approval. ${link}`;
    const decider = approval.decidedBy?.name ? ` by *${escapeSlack(approval.decidedBy.name)}*` : '';
    const state =
      approval.status === 'approved'
        ? `approved${decider} and done`
        : approval.status === 'rejected'
          ? `rejected${decider}`
          : approval.status === 'executing'
            ? `approved${decider}, running`
            : approval.lastError
              ? `failed (${escapeSlack(approval.lastError)}), pending again`
              : (approval.status ?? 'changed');
    return `${asked}: ${state}. ${link}`;
  }
  if (event === 'content-changed') {
    const { kind, action, collection, id, field } = payload as Record<string, string | undefined>;
    const what =
      kind === 'item' ? `Item ${id} in ${collection}` : kind === 'field' ? `Field ${field} of ${collection}` : `Collection ${collection}`;
    return `${escapeSlack(what)} ${action}. <${studioUrl}/content/${collection}|Open in the Studio>`;
  }
  if (event === 'copilot-notice') {
    const notice = payload.notice as { skillName?: string; actor?: { name?: string }; arguments?: Record<string, unknown> } | undefined;
    return `*${escapeSlack(notice?.actor?.name ?? 'Someone')}*'s Copilot ran ${escapeSlack(quotedSkill(notice?.skillName ?? ''))} ${escapeSlack(describeArguments(notice?.arguments))} at once (policy: warn). <${studioUrl}/settings/ai-approvals|Review or undo it>`;
  }
  return `LumiBase ${escapeSlack(event)}: ${escapeSlack(String(payload.message ?? 'test event'))} <${studioUrl}|Open the Studio>`;
}

export function webhookBody(input: {
  format: WebhookFormat;
  event: string;
  deliveryId: string;
  payload: Record<string, unknown>;
  studioUrl: string;
}): string {
  if (input.format === 'slack') return JSON.stringify({ text: slackText(input.event, input.payload, input.studioUrl) });
  return JSON.stringify({ event: input.event, deliveryId: input.deliveryId, payload: input.payload });
}

export function webhookHeaders(input: {
  secret: string;
  event: string;
  deliveryId: string;
  body: string;
  now: Date;
}): Record<string, string> {
  const timestamp = Math.floor(input.now.getTime() / 1000);
  return {
    'content-type': 'application/json',
    'user-agent': 'LumiBase-Webhooks/1',
    'x-lumibase-event': input.event,
    'x-lumibase-delivery': input.deliveryId,
    'x-lumibase-timestamp': String(timestamp),
    'x-lumibase-signature': signWebhook(input.secret, timestamp, input.body),
  };
}
