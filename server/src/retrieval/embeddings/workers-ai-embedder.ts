// Cloudflare Workers AI embeddings through its REST API: POST …/accounts/<account>/ai/run/<model> { text: [...] }.
import { WORKERS_AI_DEFAULT_BASE_URL } from '../../llm/workers-ai-planner.js';
import { EmbeddingProviderError, type Embedder } from './embedder.js';
import { DEFAULT_EMBEDDING_TIMEOUT_MS, embedInBatches, malformedError, statusError, unreachableError } from './remote-embedding.js';

export const WORKERS_AI_DEFAULT_EMBEDDING_MODEL = '@cf/baai/bge-base-en-v1.5';

const WORKERS_AI_MODEL_DIMS: Record<string, number> = {
  '@cf/baai/bge-small-en-v1.5': 384,
  '@cf/baai/bge-base-en-v1.5': 768,
  '@cf/baai/bge-large-en-v1.5': 1024,
  '@cf/baai/bge-m3': 1024,
};

/** The bge models take at most 100 texts per request. */
const WORKERS_AI_BATCH_SIZE = 100;

export interface WorkersAiEmbedderOptions {
  accountId: string;
  /** The Cloudflare API token. */
  apiToken: string;
  /** The Cloudflare API's base (…/client/v4); unset: Cloudflare's own. */
  baseURL?: string | undefined;
  model?: string | undefined;
  /** Required for models not in the table above. */
  dimensions?: number | undefined;
  timeoutMs?: number | undefined;
  batchSize?: number | undefined;
  fetch?: typeof fetch;
}

/** The documented answer: `{ success, result: { shape: [n, dims], data: number[][] }, errors: [{ code, message }] }`. */
interface WorkersAiAnswer {
  success?: boolean;
  result?: { shape?: number[]; data?: unknown };
  errors?: { code?: number; message?: string }[];
}

export class WorkersAiEmbedder implements Embedder {
  readonly model: string;
  readonly dims: number;
  private readonly url: string;
  private readonly batchSize: number;

  constructor(private readonly options: WorkersAiEmbedderOptions) {
    this.model = options.model ?? WORKERS_AI_DEFAULT_EMBEDDING_MODEL;
    const dims = options.dimensions ?? WORKERS_AI_MODEL_DIMS[this.model];
    if (dims === undefined) throw new Error(`the vector length of embedding model ${this.model} is unknown: give dimensions`);
    this.dims = dims;
    this.batchSize = options.batchSize ?? WORKERS_AI_BATCH_SIZE;
    // The model name goes into the path as Cloudflare writes it (`@cf/baai/…`): its slashes are path segments, `@` stays.
    const base = (options.baseURL ?? WORKERS_AI_DEFAULT_BASE_URL).replace(/\/+$/, '');
    this.url = `${base}/accounts/${encodeURIComponent(options.accountId)}/ai/run/${this.model
      .split('/')
      .map((segment) => encodeURIComponent(segment).replaceAll('%40', '@'))
      .join('/')}`;
  }

  embed(texts: readonly string[]): Promise<Float32Array[]> {
    return embedInBatches(texts, {
      provider: 'workers-ai',
      dims: this.dims,
      batchSize: this.batchSize,
      embedBatch: (batch) => this.embedBatch(batch),
    });
  }

  private async embedBatch(text: string[]): Promise<unknown[]> {
    const secrets = [this.options.apiToken];
    let response: Response;
    let body: string;
    try {
      response = await (this.options.fetch ?? fetch)(this.url, {
        method: 'POST',
        headers: { authorization: `Bearer ${this.options.apiToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ text }),
        signal: AbortSignal.timeout(this.options.timeoutMs ?? DEFAULT_EMBEDDING_TIMEOUT_MS),
      });
      body = await response.text();
    } catch (error) {
      throw unreachableError('workers-ai', error, secrets);
    }
    let answer: WorkersAiAnswer | undefined;
    try {
      answer = JSON.parse(body) as WorkersAiAnswer;
    } catch {
      answer = undefined;
    }
    if (!response.ok) throw statusError('workers-ai', response.status, errorsOf(answer) ?? body, secrets);
    if (!answer || answer.success === false)
      throw new EmbeddingProviderError(`workers-ai embeddings failed: ${errorsOf(answer) ?? 'the answer is not JSON'}`, false);
    const data = answer.result?.data;
    if (!Array.isArray(data)) throw malformedError('workers-ai', new Error('the answer has no result.data list'), secrets);
    return data;
  }
}

function errorsOf(answer: WorkersAiAnswer | undefined): string | undefined {
  const errors = Array.isArray(answer?.errors) ? answer.errors : [];
  const text = errors.map((error) => [error.code, error.message].filter((part) => part !== undefined).join(' ')).join('; ');
  return text || undefined;
}
