// Google Gemini embeddings through @google/genai: embedContent, which the Gemini API serves as batchEmbedContents.
import { ApiError, GoogleGenAI } from '@google/genai';
import { GEMINI_DEFAULT_BASE_URL } from '../../llm/gemini-planner.js';
import type { EmbeddingProviderError, Embedder } from './embedder.js';
import { DEFAULT_EMBEDDING_TIMEOUT_MS, embedInBatches, malformedError, statusError, unreachableError } from './remote-embedding.js';

export const GEMINI_DEFAULT_EMBEDDING_MODEL = 'gemini-embedding-001';

/** Each model's native vector length; gemini-embedding-001 also gives 768 or 1536 on request, which LumiBase asks for. */
const GEMINI_MODEL_DIMS: Record<string, number> = { 'gemini-embedding-001': 3072, 'text-embedding-004': 768 };
const GEMINI_DEFAULT_DIMS = 768;

/** batchEmbedContents takes at most 100 requests. */
const GEMINI_BATCH_SIZE = 100;

export interface GeminiEmbedderOptions {
  apiKey: string;
  baseURL?: string | undefined;
  model?: string | undefined;
  /** `outputDimensionality`; default 768 for gemini-embedding-001, the native length for other known models. */
  dimensions?: number | undefined;
  timeoutMs?: number | undefined;
  batchSize?: number | undefined;
}

export class GeminiEmbedder implements Embedder {
  readonly model: string;
  readonly dims: number;
  private readonly client: GoogleGenAI;
  private readonly sendDimensions: boolean;
  private readonly batchSize: number;

  constructor(private readonly options: GeminiEmbedderOptions) {
    this.model = options.model ?? GEMINI_DEFAULT_EMBEDDING_MODEL;
    const native = GEMINI_MODEL_DIMS[this.model];
    const dims = options.dimensions ?? (this.model === GEMINI_DEFAULT_EMBEDDING_MODEL ? GEMINI_DEFAULT_DIMS : native);
    if (dims === undefined) throw new Error(`the vector length of embedding model ${this.model} is unknown: give dimensions`);
    this.dims = dims;
    this.sendDimensions = dims !== native;
    this.batchSize = options.batchSize ?? GEMINI_BATCH_SIZE;
    this.client = new GoogleGenAI({
      apiKey: options.apiKey,
      httpOptions: {
        baseUrl: options.baseURL ?? GEMINI_DEFAULT_BASE_URL,
        timeout: options.timeoutMs ?? DEFAULT_EMBEDDING_TIMEOUT_MS,
        // One attempt: the embeddings queue owns retrying.
        retryOptions: { attempts: 1 },
      },
    });
  }

  embed(texts: readonly string[]): Promise<Float32Array[]> {
    return embedInBatches(texts, {
      provider: 'gemini',
      dims: this.dims,
      batchSize: this.batchSize,
      embedBatch: (batch) => this.embedBatch(batch),
    });
  }

  private async embedBatch(contents: string[]): Promise<number[][]> {
    let response: Awaited<ReturnType<GoogleGenAI['models']['embedContent']>>;
    try {
      response = await this.client.models.embedContent({
        model: this.model,
        contents,
        ...(this.sendDimensions ? { config: { outputDimensionality: this.dims } } : {}),
      });
    } catch (error) {
      throw this.describe(error);
    }
    const embeddings = response.embeddings;
    if (!Array.isArray(embeddings)) throw malformedError('gemini', new Error('the answer has no embeddings list'), []);
    return embeddings.map((embedding) => embedding.values ?? []);
  }

  private describe(error: unknown): EmbeddingProviderError {
    const secrets = [this.options.apiKey];
    if (error instanceof ApiError && typeof error.status === 'number') return statusError('gemini', error.status, error.message, secrets);
    const name = error instanceof Error ? error.name : '';
    // fetch rejects with a TypeError when nothing answers (refused connection, unknown host); an abort is the timeout.
    if (error instanceof TypeError || name === 'AbortError' || name === 'TimeoutError') return unreachableError('gemini', error, secrets);
    return malformedError('gemini', error, secrets);
  }
}
