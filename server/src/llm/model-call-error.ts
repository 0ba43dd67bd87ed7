// What a failed model call came to, in words safe to log and show: never the key, never the SDK's request.
import type { LlmProvider } from './planner.js';

/**
 * `unreachable`: no answer at all (connection refused, DNS); `timeout`: no answer within LLM_TIMEOUT_MS;
 * `rate_limited` and `server_error`: 429 and 5xx; `rejected`: any other 4xx (bad key, unknown model);
 * `malformed_output`: an answer the planner cannot read.
 */
export type ModelFailureKind = 'unreachable' | 'timeout' | 'rate_limited' | 'server_error' | 'rejected' | 'malformed_output';

export class ModelCallError extends Error {
  readonly provider: LlmProvider;
  readonly kind: ModelFailureKind;
  readonly status: number | undefined;
  /** From the provider's Retry-After (or retry-after-ms) header. */
  readonly retryAfterMs: number | undefined;

  constructor(options: { provider: LlmProvider; kind: ModelFailureKind; message: string; status?: number; retryAfterMs?: number }) {
    super(options.message);
    this.name = 'ModelCallError';
    this.provider = options.provider;
    this.kind = options.kind;
    this.status = options.status;
    this.retryAfterMs = options.retryAfterMs;
  }

  /** 429, 5xx and lost connections may pass on their own; a timeout already took LLM_TIMEOUT_MS. */
  get retryable(): boolean {
    return this.kind === 'rate_limited' || this.kind === 'server_error' || this.kind === 'unreachable';
  }
}

const MESSAGE_MAX = 300;

/** Provider bodies sometimes quote the key ("Incorrect API key provided: sk-…"): cut every secret out. */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  let result = text;
  for (const secret of secrets) if (secret && secret.length >= 4) result = result.split(secret).join('[redacted]');
  return result.length <= MESSAGE_MAX ? result : `${result.slice(0, MESSAGE_MAX)}…`;
}

/** Retry-After is seconds or an HTTP date; OpenAI and Anthropic also send retry-after-ms. */
export function retryAfterMs(headers: { get(name: string): string | null } | undefined, now = Date.now()): number | undefined {
  if (!headers) return undefined;
  const milliseconds = Number(headers.get('retry-after-ms'));
  if (headers.get('retry-after-ms') !== null && Number.isFinite(milliseconds) && milliseconds >= 0) return milliseconds;
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** The kind of an HTTP failure status. */
export function kindOfStatus(status: number): ModelFailureKind {
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'server_error';
  return 'rejected';
}
