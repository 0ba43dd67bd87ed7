// Log lines: JSON when the output is not a terminal, one coloured line on a terminal, LOG_FORMAT forcing either; redaction in both.
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { createLogger, resolveLogFormat } from './logger.js';

class Capture extends Writable {
  readonly chunks: string[] = [];
  constructor(readonly isTTY: boolean) {
    super();
  }
  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    this.chunks.push(chunk.toString());
    done();
  }
  get text(): string {
    return this.chunks.join('');
  }
}

const ESC = String.fromCharCode(27);

describe('resolveLogFormat', () => {
  it('is pretty on a terminal and JSON elsewhere unless LOG_FORMAT forces one', () => {
    expect(resolveLogFormat(undefined, { isTTY: true })).toBe('pretty');
    expect(resolveLogFormat(undefined, { isTTY: false })).toBe('json');
    expect(resolveLogFormat(undefined, {})).toBe('json');
    expect(resolveLogFormat('json', { isTTY: true })).toBe('json');
    expect(resolveLogFormat('pretty', { isTTY: false })).toBe('pretty');
  });

  it('reads LOG_FORMAT from the environment, refusing other values', () => {
    expect(loadConfig({ LOG_FORMAT: 'pretty' }).LOG_FORMAT).toBe('pretty');
    expect(loadConfig({}).LOG_FORMAT).toBeUndefined();
    expect(() => loadConfig({ LOG_FORMAT: 'xml' })).toThrow(/LOG_FORMAT must be pretty or json/);
  });
});

describe('createLogger', () => {
  it('writes one JSON object per line when the output is not a terminal', () => {
    const output = new Capture(false);
    createLogger({ output, name: 'test' }).info({ url: 'http://127.0.0.1:3000', token: 'sekret' }, 'LumiBase server listening');
    const lines = output.text.trim().split('\n');
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0] as string);
    expect(line).toMatchObject({ msg: 'LumiBase server listening', url: 'http://127.0.0.1:3000', token: '[redacted]', name: 'test' });
    expect(output.text).not.toContain(ESC);
  });

  it('writes one coloured, readable line per event on a terminal, with credentials redacted', () => {
    const output = new Capture(true);
    const logger = createLogger({ output, name: 'test' });
    logger.info({ url: 'http://127.0.0.1:3000' }, 'LumiBase server listening');
    logger.warn({ secret: 'whsec_abc', nested: { password: 'hunter22' } }, 'webhook created');
    const lines = output.text.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(output.text).toContain(`${ESC}[`); // ANSI colours
    const plain = output.text.replaceAll(new RegExp(`${ESC}\\[[0-9;]*m`, 'g'), '');
    expect(plain.split('\n')[0]).toMatch(
      /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO \(test\): LumiBase server listening \{.*"url":"http:\/\/127\.0\.0\.1:3000"/,
    );
    expect(plain).toContain('WARN');
    expect(plain).not.toContain('whsec_abc');
    expect(plain).not.toContain('hunter22');
    expect(() => JSON.parse(plain.split('\n')[0] as string)).toThrow();
  });

  it('forces JSON on a terminal with LOG_FORMAT=json, and pretty into a pipe with LOG_FORMAT=pretty', () => {
    const terminal = new Capture(true);
    createLogger({ output: terminal, format: 'json' }).info('hello');
    expect(JSON.parse(terminal.text.trim())).toMatchObject({ msg: 'hello' });
    const pipe = new Capture(false);
    createLogger({ output: pipe, format: 'pretty' }).info('hello');
    expect(pipe.text).toContain('INFO');
    expect(pipe.text).toContain(`${ESC}[`);
  });
});
