// The CLI refuses to expose the unauthenticated server beyond loopback unless told the caller accepts that.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isLoopbackHost } from './loopback-host.js';

const PACKAGE_ROOT = fileURLToPath(new URL('../', import.meta.url));

/** Runs the CLI until it prints its ready line (then SIGTERM) or exits on its own. */
function runCli(args: string[]): Promise<{ ready: boolean; code: number | null; output: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', '--port', '0', '--in-memory', ...args], {
    cwd: PACKAGE_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, LOG_LEVEL: 'warn' },
  });
  let output = '';
  let ready = false;
  const onData = (chunk: Buffer) => {
    output += chunk.toString();
    if (!ready && /^ready mongodb:\/\//m.test(output)) {
      ready = true;
      child.kill('SIGTERM');
    }
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  return new Promise((resolve) => child.once('exit', (code) => resolve({ ready, code, output })));
}

describe('db:embedded --host', () => {
  it('refuses a non-loopback --host without --allow-remote-no-auth, and never listens', async () => {
    const result = await runCli(['--host', '0.0.0.0']);
    expect(result.ready).toBe(false);
    expect(result.code).toBe(1);
    expect(result.output).toMatch(/refusing --host 0\.0\.0\.0: the embedded server has no authentication/);
  });

  it('binds a non-loopback --host when --allow-remote-no-auth accepts it, and a loopback one without', async () => {
    const allowed = await runCli(['--host', '0.0.0.0', '--allow-remote-no-auth']);
    expect(allowed.ready, allowed.output).toBe(true);
    const loopback = await runCli(['--host', '127.0.0.1']);
    expect(loopback.ready, loopback.output).toBe(true);
  });

  it('counts only loopback addresses as loopback', () => {
    for (const host of ['127.0.0.1', '127.4.5.6', 'localhost', 'LOCALHOST', '::1', '[::1]', '::ffff:127.0.0.1']) {
      expect(isLoopbackHost(host), host).toBe(true);
    }
    for (const host of ['0.0.0.0', '::', '[::]', '192.168.1.10', '10.0.0.1', 'example.com', '::ffff:10.0.0.1', '127.example.com', '']) {
      expect(isLoopbackHost(host), host).toBe(false);
    }
  });
});
