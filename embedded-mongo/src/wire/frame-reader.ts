// Splits a TCP byte stream into whole wire-protocol frames, rejecting impossible lengths early.
import { HEADER_BYTES, MalformedMessageError } from './wire-message.js';

export class FrameReader {
  private chunks: Buffer[] = [];
  private buffered = 0;

  constructor(private readonly maxMessageSizeBytes: number) {}

  /** Adds bytes and returns every frame now complete; throws on a length no valid frame has. */
  push(chunk: Buffer): Buffer[] {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    const frames: Buffer[] = [];
    for (;;) {
      if (this.buffered < 4) return frames;
      const length = this.peekLength();
      if (length < HEADER_BYTES) throw new MalformedMessageError(`message length ${length} is shorter than a header`);
      if (length > this.maxMessageSizeBytes) {
        throw new MalformedMessageError(`message length ${length} exceeds maxMessageSizeBytes ${this.maxMessageSizeBytes}`);
      }
      if (this.buffered < length) return frames;
      frames.push(this.take(length));
    }
  }

  private peekLength(): number {
    const first = this.chunks[0] as Buffer;
    if (first.length >= 4) return first.readInt32LE(0);
    this.chunks = [Buffer.concat(this.chunks)];
    return (this.chunks[0] as Buffer).readInt32LE(0);
  }

  // Concatenates only once per frame, so a 48 MB message in 64 KB chunks is not copied quadratically.
  private take(length: number): Buffer {
    const joined = this.chunks.length === 1 ? (this.chunks[0] as Buffer) : Buffer.concat(this.chunks, this.buffered);
    const frame = joined.subarray(0, length);
    const rest = joined.subarray(length);
    this.chunks = rest.length ? [rest] : [];
    this.buffered = rest.length;
    return frame;
  }
}
