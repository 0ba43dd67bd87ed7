// The journal framing: whatever prefix of a record stream survives a crash decodes to whole records only.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeRecords, encodeRecords } from './record-codec.js';

const changes = (count: number) =>
  Array.from({ length: count }, (_, n) => ({ op: 'put', db: 'd', coll: 'c', doc: { _id: n, text: 'x'.repeat(n % 7) } }));

describe('record codec', () => {
  it('round-trips documents through framed records', () => {
    const buffer = Buffer.concat(encodeRecords(changes(5)));
    const decoded = decodeRecords(buffer);
    expect(decoded.documents).toEqual(changes(5));
    expect(decoded.validBytes).toBe(buffer.length);
  });

  it('splits large batches into several records', () => {
    const big = Array.from({ length: 3 }, (_, n) => ({ op: 'put', doc: { _id: n, blob: 'y'.repeat(1536 * 1024) } }));
    const records = encodeRecords(big);
    expect(records.length).toBeGreaterThan(1);
    expect(decodeRecords(Buffer.concat(records)).documents).toHaveLength(3);
  });

  it('decodes only the whole records of any torn prefix', () => {
    const records = [0, 1, 2, 3].map((n) => Buffer.concat(encodeRecords(changes(n + 1))));
    const stream = Buffer.concat(records);
    const boundaries: number[] = [];
    for (const record of records) boundaries.push((boundaries[boundaries.length - 1] ?? 0) + record.length);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: stream.length }), (cut) => {
        const { documents, validBytes } = decodeRecords(stream.subarray(0, cut));
        const whole = boundaries.filter((end) => end <= cut).length;
        expect(validBytes).toBe(boundaries[whole - 1] ?? 0);
        expect(documents).toHaveLength(whole === 0 ? 0 : (whole * (whole + 1)) / 2);
      }),
    );
  });

  it('stops at a record whose checksum does not match', () => {
    const first = Buffer.concat(encodeRecords(changes(1)));
    const second = Buffer.concat(encodeRecords(changes(2)));
    second[second.length - 3] = (second[second.length - 3] as number) ^ 0xff;
    const { documents, validBytes } = decodeRecords(Buffer.concat([first, second]));
    expect(documents).toHaveLength(1);
    expect(validBytes).toBe(first.length);
  });

  it('treats zero-filled space after the last record as a torn tail', () => {
    const record = Buffer.concat(encodeRecords(changes(1)));
    expect(decodeRecords(Buffer.concat([record, Buffer.alloc(64)])).validBytes).toBe(record.length);
  });
});
