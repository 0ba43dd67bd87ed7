import type { Field } from '@lumibase/shared';
import { describe, expect, it } from 'vitest';
import { columnsKey, defaultColumns, loadColumns, saveColumns } from './column-choice.js';

const field = (name: string, required = false): Field => ({ name, type: 'string', required });
const fields = ['a', 'b', 'c', 'd', 'e', 'f'].map((name) => field(name)).concat(field('g', true));

function memoryStorage() {
  const entries = new Map<string, string>();
  return { getItem: (key: string) => entries.get(key) ?? null, setItem: (key: string, value: string) => void entries.set(key, value) };
}

describe('the items table’s columns', () => {
  it('shows the first five fields and every required one by default', () => {
    expect(defaultColumns(fields)).toEqual(['a', 'b', 'c', 'd', 'e', 'g']);
    expect(loadColumns(memoryStorage(), 'k', fields)).toEqual(['a', 'b', 'c', 'd', 'e', 'g']);
  });

  it('remembers a choice per site and collection, in the fields’ order, dropping fields that are gone', () => {
    const storage = memoryStorage();
    saveColumns(storage, columnsKey('s1', 'posts'), ['f', 'a', 'gone']);
    expect(loadColumns(storage, columnsKey('s1', 'posts'), fields)).toEqual(['a', 'f']);
    expect(loadColumns(storage, columnsKey('s1', 'pages'), fields)).toEqual(defaultColumns(fields));
    expect(loadColumns(storage, columnsKey('s2', 'posts'), fields)).toEqual(defaultColumns(fields));
  });

  it('falls back to the default when what is stored is not a list', () => {
    const storage = memoryStorage();
    storage.setItem('k', '{not json');
    expect(loadColumns(storage, 'k', fields)).toEqual(defaultColumns(fields));
  });
});
