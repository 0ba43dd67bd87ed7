import { describe, expect, it, vi } from 'vitest';
import { createPlanner, type PlannerConfig } from './create-planner.js';
import type { Planner } from './planner.js';

const base: PlannerConfig = { LLM_PROVIDER: 'echo' } as PlannerConfig;

describe('createPlanner', () => {
  it('returns the echo planner when LLM_PROVIDER=echo', () => {
    expect(createPlanner(base).provider).toBe('echo');
  });

  it('falls back to echo, saying why, when the provider’s credentials are missing', () => {
    const onFallback = vi.fn();
    expect(createPlanner({ ...base, LLM_PROVIDER: 'workers-ai', CLOUDFLARE_ACCOUNT_ID: 'a' }, { onFallback }).provider).toBe('echo');
    expect(onFallback).toHaveBeenCalledWith(expect.stringContaining('CLOUDFLARE_API_TOKEN'));
  });

  it('falls back to echo while a configured provider has no adapter yet', () => {
    const onFallback = vi.fn();
    expect(createPlanner({ ...base, LLM_PROVIDER: 'openai', OPENAI_API_KEY: 'k' }, { onFallback, factories: {} }).provider).toBe('echo');
    expect(onFallback).toHaveBeenCalledWith(expect.stringContaining('not available yet'));
  });

  it('builds a registered provider with the default model of the seeds or LLM_MODEL', () => {
    const built: (string | undefined)[] = [];
    const openai = ({ model }: { model: string | undefined }): Planner => {
      built.push(model);
      return { provider: 'openai', model, plan: async () => ({ toolCalls: [] }) } as Planner;
    };
    const config = { ...base, LLM_PROVIDER: 'openai', OPENAI_API_KEY: 'k' } as PlannerConfig;
    expect(createPlanner(config, { factories: { openai } }).provider).toBe('openai');
    createPlanner({ ...config, LLM_MODEL: 'gpt-4.1' }, { factories: { openai } });
    expect(built).toEqual(['gpt-4o-mini', 'gpt-4.1']);
  });
});
