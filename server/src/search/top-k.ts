// A bounded min-heap keeping the k best-scored entries seen: O(n log k) for a scan of n vectors.

export class TopK<T> {
  private readonly heap: { score: number; value: T }[] = [];

  constructor(private readonly k: number) {}

  /** Offers an entry; kept only while it is among the k best so far. */
  offer(score: number, value: T): void {
    if (this.k <= 0) return;
    const heap = this.heap;
    if (heap.length < this.k) {
      heap.push({ score, value });
      this.up(heap.length - 1);
    } else if (score > (heap[0] as { score: number }).score) {
      heap[0] = { score, value };
      this.down(0);
    }
  }

  /** Best first. */
  sorted(): { score: number; value: T }[] {
    return [...this.heap].sort((left, right) => right.score - left.score);
  }

  private up(index: number): void {
    const heap = this.heap;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if ((heap[parent] as { score: number }).score <= (heap[index] as { score: number }).score) return;
      [heap[parent], heap[index]] = [heap[index]!, heap[parent]!];
      index = parent;
    }
  }

  private down(index: number): void {
    const heap = this.heap;
    for (;;) {
      const left = 2 * index + 1;
      const right = left + 1;
      let smallest = index;
      if (left < heap.length && heap[left]!.score < heap[smallest]!.score) smallest = left;
      if (right < heap.length && heap[right]!.score < heap[smallest]!.score) smallest = right;
      if (smallest === index) return;
      [heap[smallest], heap[index]] = [heap[index]!, heap[smallest]!];
      index = smallest;
    }
  }
}

/** The dot product, which is the cosine for unit vectors. */
export function dot(left: Float32Array, right: Float32Array): number {
  const length = Math.min(left.length, right.length);
  let sum = 0;
  for (let index = 0; index < length; index++) sum += (left[index] as number) * (right[index] as number);
  return sum;
}
