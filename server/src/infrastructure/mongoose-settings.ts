// The process-wide mongoose settings, applied by every process (and the bench's in-process P1) before it connects.
import type { Mongoose } from 'mongoose';

export function applyMongooseSettings(instance: Mongoose): void {
  // Mongoose otherwise takes `new Error().stack` on every query it runs, only to word a "Query was already executed"
  // error (a programming error) better. Under source maps (tsx) each of those stacks is formatted through the source
  // map: about 1.5 % of the worker's CPU under P3 in a profile, for a message nobody reads.
  instance.set('skipOriginalStackTraces', true);
}
