// One action a control runs on request (Assist, Suggest, Search): busy while it runs, the error it ended with, the
// value it returned. Only the latest run counts: a new run aborts the one in flight and its answer is dropped.
import { type ApiError, describeError, toApiError } from '../api/index.js';

export interface AsyncActionOptions {
  /** How a failure reads (describeError by default; describeAiError for the AI skills). */
  describe?: (error: ApiError) => string;
}

export class AsyncAction<Input, Output> {
  busy = $state(false);
  /** The last run's failure (cleared when the next run starts). */
  error = $state.raw<ApiError | undefined>(undefined);
  /** The last successful run's value (kept while the next one runs; cleared by a failure). */
  value = $state.raw<Output | undefined>(undefined);
  /** Why the control did not run the action (its input was missing), until the next run. */
  refusal = $state<string | undefined>(undefined);

  readonly #action: (input: Input, signal: AbortSignal) => Promise<Output>;
  readonly #describe: (error: ApiError) => string;
  #generation = 0;
  #controller: AbortController | undefined;

  constructor(action: (input: Input, signal: AbortSignal) => Promise<Output>, { describe = describeError }: AsyncActionOptions = {}) {
    this.#action = action;
    this.#describe = describe;
  }

  /** What to show under the control: the refusal or the failure, described; undefined when there is neither. */
  get message(): string | undefined {
    return this.refusal ?? (this.error ? this.#describe(this.error) : undefined);
  }

  /** Runs the action; resolves to its value, or undefined when it failed or a later run replaced it. Never throws. */
  async run(input: Input): Promise<Output | undefined> {
    this.#abort();
    const generation = ++this.#generation;
    const controller = new AbortController();
    this.#controller = controller;
    this.busy = true;
    this.error = undefined;
    this.refusal = undefined;
    try {
      const value = await this.#action(input, controller.signal);
      if (generation !== this.#generation) return undefined;
      this.value = value;
      return value;
    } catch (caught) {
      if (generation !== this.#generation) return undefined;
      this.value = undefined;
      this.error = toApiError(caught);
      return undefined;
    } finally {
      if (generation === this.#generation) {
        this.busy = false;
        this.#controller = undefined;
      }
    }
  }

  /** Says why the action was not run (shown as `message`). */
  refuse(message: string): void {
    this.refusal = message;
  }

  /** Clears the message shown (the panel closing); the value stays. */
  dismiss(): void {
    this.refusal = undefined;
    this.error = undefined;
  }

  /** Drops the run in flight (if any): aborted, its answer ignored; what is shown stays. */
  cancel(): void {
    this.#abort();
    this.#generation++;
    this.busy = false;
  }

  /** Drops the run in flight (if any) and forgets everything shown. */
  reset(): void {
    this.cancel();
    this.error = undefined;
    this.refusal = undefined;
    this.value = undefined;
  }

  #abort(): void {
    this.#controller?.abort();
    this.#controller = undefined;
  }
}
