// At most `running` tasks at once and `waiting` more in line; beyond that a task is refused at once.

export interface BoundedConcurrencyOptions {
  running: number;
  waiting: number;
  /** The error a refused task throws. */
  refusal: () => Error;
}

export class BoundedConcurrency {
  private active = 0;
  private readonly line: Array<() => void> = [];

  constructor(private readonly options: BoundedConcurrencyOptions) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active < this.options.running) this.active += 1;
    else if (this.line.length < this.options.waiting) await new Promise<void>((resolve) => this.line.push(resolve));
    else throw this.options.refusal();
    try {
      return await task();
    } finally {
      // The slot passes straight to the next in line, so `active` never exceeds `running`.
      const next = this.line.shift();
      if (next) next();
      else this.active -= 1;
    }
  }
}
