// Server-side timing per command name, reported under serverStatus.embedded for the benchmark.
import type { Document } from 'bson';

interface CommandTiming {
  count: number;
  processingNanoseconds: bigint;
  writingNanoseconds: bigint;
}

export class ServerStats {
  private readonly commands = new Map<string, CommandTiming>();

  observe(commandName: string, processing: bigint, writing: bigint): void {
    let timing = this.commands.get(commandName);
    if (!timing) {
      timing = { count: 0, processingNanoseconds: 0n, writingNanoseconds: 0n };
      this.commands.set(commandName, timing);
    }
    timing.count += 1;
    timing.processingNanoseconds += processing;
    timing.writingNanoseconds += writing;
  }

  snapshot(): Document {
    const commands: Document = {};
    for (const [name, timing] of this.commands) {
      commands[name] = {
        count: timing.count,
        totalMicros: Number(timing.processingNanoseconds / 1000n),
        socketWriteMicros: Number(timing.writingNanoseconds / 1000n),
      };
    }
    return commands;
  }
}
