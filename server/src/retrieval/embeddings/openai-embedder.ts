// OpenAI embeddings (or any OpenAI-compatible server at OPENAI_BASE_URL) through the `openai` SDK.
import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { OPENAI_DEFAULT_BASE_URL } from '../../llm/openai-planner.js';
import { EmbeddingProviderError, type Embedder } from './embedder.js';
import { DEFAULT_EMBEDDING_TIMEOUT_MS, embedInBatches, malformedError, statusError, unreachableError } from './remote-embedding.js';

export const OPENAI_DEFAULT_EMBEDDING_MODEL = 'text-embedding-3-small';

/** Each model's native vector length; others need `dimensions`. */
const OPENAI_MODEL_DIMS: Record<string, number> = {
  'text-embedding-3-small': 1536,
  'text-embedding-3-large': 3072,
  'text-embedding-ada-002': 1536,
};

/** The service takes up to 2048 inputs per request; fewer keep each request well under its token limit. */
const OPENAI_BATCH_SIZE = 256;

export interface OpenAIEmbedderOptions {
  apiKey: string;
  /** Unset: the OpenAI service. */
  baseURL?: string | undefined;
  model?: string | undefined;
  /** Asks text-embedding-3 models for shorter vectors (the `dimensions` parameter); required for unknown models. */
  dimensions?: number | undefined;
  timeoutMs?: number | undefined;
  batchSize?: number | undefined;
}

export class OpenAIEmbedder implements Embedder {
  readonly model: string;
  readonly dims: number;
  private readonly client: OpenAI;
  private readonly sendDimensions: boolean;
  private readonly batchSize: number;

  constructor(private readonly options: OpenAIEmbedderOptions) {
    this.model = options.model ?? OPENAI_DEFAULT_EMBEDDING_MODEL;
    const dims = options.dimensions ?? OPENAI_MODEL_DIMS[this.model];
    if (dims === undefined) throw new Error(`the vector length of embedding model ${this.model} is unknown: give dimensions`);
    this.dims = dims;
    this.sendDimensions = options.dimensions !== undefined && options.dimensions !== OPENAI_MODEL_DIMS[this.model];
    this.batchSize = options.batchSize ?? OPENAI_BATCH_SIZE;
    // maxRetries 0: the embeddings queue retries with backoff, so the SDK's never multiply its tries.
    this.client = new OpenAI({
      apiKey: options.apiKey,
      baseURL: options.baseURL ?? OPENAI_DEFAULT_BASE_URL,
      timeout: options.timeoutMs ?? DEFAULT_EMBEDDING_TIMEOUT_MS,
      maxRetries: 0,
    });
  }

  embed(texts: readonly string[]): Promise<Float32Array[]> {
    return embedInBatches(texts, {
      provider: 'openai',
      dims: this.dims,
      batchSize: this.batchSize,
      embedBatch: (batch) => this.embedBatch(batch),
    });
  }

  private async embedBatch(input: string[]): Promise<number[][]> {
    let response: OpenAI.Embeddings.CreateEmbeddingResponse;
    try {
      // Floats, not the SDK's default base64: every OpenAI-compatible server speaks them.
      response = await this.client.embeddings.create({
        model: this.model,
        input,
        encoding_format: 'float',
        ...(this.sendDimensions ? { dimensions: this.dims } : {}),
      });
    } catch (error) {
      throw this.describe(error);
    }
    if (!Array.isArray(response?.data)) throw malformedError('openai', new Error('the answer has no data list'), []);
    // `index` says which input each embedding belongs to; servers need not keep the order.
    const ordered = [...response.data].sort((a, b) => a.index - b.index);
    return ordered.map((entry) => entry.embedding);
  }

  private describe(error: unknown): EmbeddingProviderError {
    const secrets = [this.options.apiKey];
    if (error instanceof APIConnectionTimeoutError) return new EmbeddingProviderError('openai embeddings did not answer in time', true);
    if (error instanceof APIConnectionError || error instanceof APIUserAbortError) return unreachableError('openai', error, secrets);
    if (error instanceof APIError && typeof error.status === 'number') return statusError('openai', error.status, error.message, secrets);
    if (error instanceof EmbeddingProviderError) return error;
    return malformedError('openai', error, secrets);
  }
}
