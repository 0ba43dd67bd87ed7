import { describe, expect, it } from 'vitest';
import { ConfigError, describeConfig, loadConfig, SETTINGS } from './config.js';

describe('loadConfig', () => {
  it('gives every setting its documented default on an empty environment', () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(3000);
    expect(config.DATA_DIR).toBe('.data');
    expect(config.LLM_PROVIDER).toBe('echo');
    expect(config.DECIDE_WAIT_MS).toBe(5000);
    expect(config.LUMIBASE_DEMO).toBe(true);
    expect(config.MONGODB_URI).toBeUndefined();
    for (const [name, setting] of Object.entries(SETTINGS)) {
      if ('default' in setting) expect(String(config[name as keyof typeof config]), name).toBe(setting.default);
    }
  });

  it('parses numbers and flags from strings', () => {
    const config = loadConfig({ PORT: '8080', LUMIBASE_DEMO: 'false', DECIDE_WAIT_MS: '250', LOG_LEVEL: 'debug' });
    expect(config).toMatchObject({ PORT: 8080, LUMIBASE_DEMO: false, DECIDE_WAIT_MS: 250, LOG_LEVEL: 'debug' });
  });

  it('refuses a bad value with one line naming the variable and what it accepts', () => {
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(ConfigError);
    try {
      loadConfig({ PORT: 'abc' });
    } catch (error) {
      const message = (error as Error).message;
      expect(message).toBe('Invalid configuration: PORT must be an integer from 0 to 65535 (got "abc")');
      expect(message).not.toContain('\n');
    }
  });

  it.each([
    ['PORT', '70000'],
    ['LLM_PROVIDER', 'skynet'],
    ['LUMIBASE_DEMO', 'maybe'],
    ['MONGODB_URI', 'postgres://x'],
    ['REDIS_URL', 'http://x'],
    ['LOG_LEVEL', 'loud'],
  ])('refuses %s=%s', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`^Invalid configuration: ${name} must be`));
  });

  it('never repeats a secret value in its error or its description', () => {
    const secret = 'short';
    expect(() => loadConfig({ LUMIBASE_ADMIN_PASSWORD: secret })).toThrow(/LUMIBASE_ADMIN_PASSWORD/);
    try {
      loadConfig({ LUMIBASE_ADMIN_PASSWORD: secret });
    } catch (error) {
      expect((error as Error).message).not.toContain(secret);
    }
    const described = describeConfig(loadConfig({ OPENAI_API_KEY: 'sk-very-secret', MONGODB_URI: 'mongodb://user:pw@host/db' }));
    expect(JSON.stringify(described)).not.toContain('sk-very-secret');
    expect(JSON.stringify(described)).not.toContain('pw@host');
    expect(described.OPENAI_API_KEY).toBe('set');
    expect(described.ANTHROPIC_API_KEY).toBe('unset');
  });
});
