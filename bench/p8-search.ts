// P8: GET /ai/search p50 at 1k, 10k and 50k items vs a bare exact top-k over the same vectors; the local
// embedder's throughput. Search is not on this branch yet.
import type { Row } from './lib/report.js';

export async function runP8(): Promise<{ rows: Row[]; details: Record<string, unknown> }> {
  return {
    rows: [
      { id: 'P8', name: 'GET /ai/search p50 vs bare top-k', unavailable: 'not available: /ai/search is not built on this branch yet' },
    ],
    details: {},
  };
}
