// The catalog's tools converted to a provider's format once per tool list, not on every model call.
import type { ToolSpec } from '@lumibase/shared';

export class ToolCache<T> {
  private readonly converted = new WeakMap<readonly ToolSpec[], T>();

  constructor(private readonly convert: (specs: readonly ToolSpec[]) => T) {}

  get(specs: readonly ToolSpec[]): T {
    let tools = this.converted.get(specs);
    if (tools === undefined) {
      tools = this.convert(specs);
      this.converted.set(specs, tools);
    }
    return tools;
  }
}
