// Signatures and bodies of deliveries; the README's verification snippet accepts what the server signs and nothing else.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { slackText, webhookBody, webhookHeaders } from './webhook-message.js';

const readme = readFileSync(join(import.meta.dirname, '../../../README.md'), 'utf8');

async function readmeVerifier(): Promise<(secret: string, headers: Record<string, string>, raw: string) => boolean> {
  const snippet = readme.split('### Verifying a webhook')[1]?.split('```js\n')[1]?.split('```')[0];
  if (!snippet) throw new Error('the README lost its verification snippet');
  const file = join(mkdtempSync(join(tmpdir(), 'lumibase-readme-')), 'verify.mjs');
  writeFileSync(file, snippet);
  return ((await import(pathToFileURL(file).href)) as { verifyLumiBase: never }).verifyLumiBase;
}

describe('webhook messages', () => {
  it("are accepted by the README's verifier, and refused when the body, timestamp or secret differ", async () => {
    const verify = await readmeVerifier();
    const body = webhookBody({ format: 'json', event: 'content-changed', deliveryId: 'd1', payload: { seq: 3 }, studioUrl: 'https://x' });
    const headers = webhookHeaders({ secret: 's3cret-s3cret-s3cret', event: 'content-changed', deliveryId: 'd1', body, now: new Date() });
    expect(verify('s3cret-s3cret-s3cret', headers, body)).toBe(true);
    expect(verify('s3cret-s3cret-s3cret', headers, body.replace('3', '4'))).toBe(false);
    expect(verify('another-secret-entirely', headers, body)).toBe(false);
    expect(
      verify('s3cret-s3cret-s3cret', { ...headers, 'x-lumibase-timestamp': String(Number(headers['x-lumibase-timestamp']) + 1) }, body),
    ).toBe(false);
    const old = webhookHeaders({
      secret: 's3cret-s3cret-s3cret',
      event: 'e',
      deliveryId: 'd1',
      body,
      now: new Date(Date.now() - 3600_000),
    });
    expect(verify('s3cret-s3cret-s3cret', old, body)).toBe(false);
  });

  it('says in Slack who asked for what and who decided, escaping what they typed', () => {
    const approval = {
      id: 'a1',
      skillName: 'deleteItem',
      arguments: { collection: 'posts', id: '<b>' },
      requestedBy: { name: 'Ann & co' },
    };
    expect(slackText('approval-created', { approval: { ...approval, status: 'pending' } }, 'https://cms.test')).toBe(
      '*Ann &amp; co* asked the Copilot to run “Delete an item” {"collection":"posts","id":"&lt;b&gt;"}: waiting for approval. <https://cms.test/settings/ai-approvals#approval-a1|Open the approval>',
    );
    expect(
      slackText('approval-decided', { approval: { ...approval, status: 'rejected', decidedBy: { name: 'Bo' } } }, 'https://cms.test'),
    ).toContain(': rejected by *Bo*.');
  });
});
