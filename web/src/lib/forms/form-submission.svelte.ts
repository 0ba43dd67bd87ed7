// One form's submission: the busy flag, the API's objections mapped to the form's inputs, and a general message.
import { type ApiError, describeError, toApiError } from '../api/index.js';
import { mapDetails } from './validation-details.js';

export type FieldErrors = Record<string, string[]>;

export interface FormSubmissionOptions {
  /** The form's input names: validation details for them show by the input, the rest as the general message. */
  inputs: readonly string[];
  /** How the form explains a refusal other than a validation failure (a taken name, a wrong password). */
  explain?: (error: ApiError) => { fields?: FieldErrors; general?: string } | undefined;
}

/** What became of a submission: not sent (the form's own checks failed), sent and refused, or done. */
export type SubmissionOutcome = 'invalid' | 'failed' | 'done';

export class FormSubmission {
  busy = $state(false);
  errors = $state<FieldErrors>({});
  general = $state<string | undefined>();
  readonly #options: FormSubmissionOptions;

  constructor(options: FormSubmissionOptions) {
    this.#options = options;
  }

  /** Forgets the last submission's objections (a dialog opening again). */
  reset(): void {
    this.errors = {};
    this.general = undefined;
  }

  /**
   * Clears the last objections; when `validate` finds nothing to object to, runs `action` with `busy` set and
   * shows its failure by the inputs or as the general message. Never throws.
   */
  async submit(action: () => Promise<void>, validate?: () => FieldErrors): Promise<SubmissionOutcome> {
    this.reset();
    const invalid = validate?.() ?? {};
    if (Object.keys(invalid).length > 0) {
      this.errors = invalid;
      return 'invalid';
    }
    this.busy = true;
    try {
      await action();
      return 'done';
    } catch (caught) {
      this.#show(toApiError(caught));
      return 'failed';
    } finally {
      this.busy = false;
    }
  }

  /** Marks inputs invalid from inside an action (a lookup that found nothing). */
  reject(errors: FieldErrors): void {
    this.errors = errors;
  }

  #show(error: ApiError): void {
    if (error.code === 'VALIDATION_FAILED') {
      const mapped = mapDetails(error.details, { inputs: this.#options.inputs });
      this.errors = mapped.fields;
      this.general = mapped.general.join(' ') || (Object.keys(mapped.fields).length ? undefined : error.message);
      return;
    }
    const explained = this.#options.explain?.(error);
    if (explained) {
      this.errors = explained.fields ?? {};
      this.general = explained.general;
    } else this.general = describeError(error);
  }
}
