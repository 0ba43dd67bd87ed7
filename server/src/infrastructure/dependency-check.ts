// A backing service the readiness probe asks (MongoDB, Redis): what infrastructure hands the HTTP layer.
export interface DependencyCheck {
  name: string;
  /** Resolves when the dependency answers; rejects (or times out) otherwise. */
  check(): Promise<unknown>;
}
