// Append-only journal with group commit: writers that arrive during an fsync share the next one.
import type { FileHandle } from 'node:fs/promises';
import { open } from 'node:fs/promises';
import { journalPath, syncDirectory } from './journal-files.js';

interface PendingWrite {
  generation: number;
  records: Buffer[];
  resolve(): void;
  reject(error: Error): void;
}

export interface JournalStats {
  commits: number;
  flushes: number;
  maxBatch: number;
  fsyncMicros: number;
  bytesWritten: number;
}

/**
 * One flush loop writes batches strictly in append order, so a write is acknowledged only when
 * it and every write before it are on disk, and only the newest journal file can end torn.
 */
export class Journal {
  private pending: PendingWrite[] = [];
  private flushing: Promise<void> | undefined;
  private file: { generation: number; handle: FileHandle } | undefined;
  private failure: Error | undefined;
  private lastWrite: Promise<void> = Promise.resolve();
  private readonly counters: JournalStats = { commits: 0, flushes: 0, maxBatch: 0, fsyncMicros: 0, bytesWritten: 0 };

  constructor(
    private readonly directory: string,
    private currentGeneration: number,
    private bytesInGeneration: number,
  ) {}

  get generation(): number {
    return this.currentGeneration;
  }

  /** Bytes appended to the current generation: what a snapshot would let us discard. */
  get size(): number {
    return this.bytesInGeneration;
  }

  stats(): JournalStats {
    return { ...this.counters };
  }

  /** Queues records and resolves once they are fsynced. Called synchronously after the change is applied. */
  append(records: Buffer[]): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    for (const record of records) this.bytesInGeneration += record.length;
    const durable = new Promise<void>((resolve, reject) => {
      this.pending.push({ generation: this.currentGeneration, records, resolve, reject });
      this.flushing ??= this.flushLoop();
    });
    this.lastWrite = durable.catch(() => {});
    return durable;
  }

  /**
   * Sends later appends to a new file; a snapshot captured now covers everything before. Resolves
   * when the old file has received its last write (without waiting for newer ones, which never stop
   * under load).
   */
  rotate(generation: number): Promise<void> {
    this.currentGeneration = generation;
    this.bytesInGeneration = 0;
    return this.lastWrite;
  }

  async drain(): Promise<void> {
    while (this.flushing) await this.flushing;
  }

  async close(): Promise<void> {
    await this.drain();
    await this.file?.handle.close();
    this.file = undefined;
  }

  private async flushLoop(): Promise<void> {
    try {
      while (this.pending.length) {
        const batch = this.pending;
        this.pending = [];
        try {
          for (const group of groupByGeneration(batch)) await this.writeDurably(group.generation, group.records);
        } catch (error) {
          // The in-memory state is now ahead of the disk: refuse every later write rather than ack it.
          this.failure = error as Error;
          for (const write of [...batch, ...this.pending]) write.reject(this.failure);
          this.pending = [];
          return;
        }
        this.counters.flushes += 1;
        this.counters.commits += batch.length;
        this.counters.maxBatch = Math.max(this.counters.maxBatch, batch.length);
        for (const write of batch) write.resolve();
      }
    } finally {
      this.flushing = undefined;
    }
  }

  private async writeDurably(generation: number, records: Buffer[]): Promise<void> {
    const handle = await this.handleFor(generation);
    let remaining = records;
    while (remaining.length) {
      const { bytesWritten } = await handle.writev(remaining);
      this.counters.bytesWritten += bytesWritten;
      remaining = skipBytes(remaining, bytesWritten);
    }
    const started = process.hrtime.bigint();
    await handle.datasync();
    this.counters.fsyncMicros += Number((process.hrtime.bigint() - started) / 1000n);
  }

  private async handleFor(generation: number): Promise<FileHandle> {
    if (this.file?.generation === generation) return this.file.handle;
    await this.file?.handle.close();
    this.file = undefined;
    const handle = await open(journalPath(this.directory, generation), 'a');
    await syncDirectory(this.directory);
    this.file = { generation, handle };
    return handle;
  }
}

function groupByGeneration(batch: PendingWrite[]): { generation: number; records: Buffer[] }[] {
  const groups: { generation: number; records: Buffer[] }[] = [];
  for (const write of batch) {
    const last = groups[groups.length - 1];
    if (last?.generation === write.generation) last.records.push(...write.records);
    else groups.push({ generation: write.generation, records: [...write.records] });
  }
  return groups;
}

// writev may write fewer bytes than asked (e.g. near a full disk); continue from where it stopped.
function skipBytes(buffers: Buffer[], count: number): Buffer[] {
  let skipped = count;
  const rest: Buffer[] = [];
  for (const buffer of buffers) {
    if (skipped >= buffer.length) {
      skipped -= buffer.length;
      continue;
    }
    rest.push(skipped > 0 ? buffer.subarray(skipped) : buffer);
    skipped = 0;
  }
  return rest;
}
