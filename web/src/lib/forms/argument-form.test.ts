import { SKILL_LIST } from '@lumibase/shared';
import { describe, expect, it } from 'vitest';
import { argumentInputs, checkForm, describeChanges, formValues, inWords, placeDetails } from './argument-form.js';

describe('argument form', () => {
  it('has a labelled input for every argument of every skill', () => {
    for (const skill of SKILL_LIST) {
      const inputs = argumentInputs(skill.name);
      const shape = Object.keys((skill.parameters as unknown as { shape: Record<string, unknown> }).shape);
      expect(inputs.map((input) => input.path)).toEqual(shape);
      for (const input of inputs) expect(input.label).toMatch(/^[A-Z]/);
    }
  });

  it('gives back the arguments it was filled with, nested objects and defaults included', () => {
    const args = { collection: 'posts', field: { name: 'status', type: 'enum', required: true, options: { values: ['a', 'b'] } } };
    const inputs = argumentInputs('createField');
    expect(checkForm('createField', inputs, formValues(inputs, args))).toEqual({ ok: true, arguments: args });
    const patch = { collection: 'posts', field: 'title', changes: { required: false } };
    const patchInputs = argumentInputs('updateField');
    expect(checkForm('updateField', patchInputs, formValues(patchInputs, patch))).toEqual({ ok: true, arguments: patch });
  });

  it('says what is wrong in words at the input it concerns: no patterns, no parser messages', () => {
    const inputs = argumentInputs('createField');
    const values = formValues(inputs, { collection: 'posts', field: { name: 'a', type: 'string', required: false } });
    const bad = checkForm('createField', inputs, { ...values, collection: 'Posts!', 'field.options': '{ "values": [' });
    expect(bad).toEqual({ ok: false, errors: { 'field.options': expect.stringMatching(/could not be read/) }, general: [] });
    const named = checkForm('createField', inputs, { ...values, collection: 'Posts!' });
    expect(named).toEqual({ ok: false, errors: { collection: expect.stringMatching(/^Use lowercase letters/) }, general: [] });
    const limits = checkForm('listItems', argumentInputs('listItems'), { collection: 'posts', limit: '12,5', offset: '' });
    expect(limits).toEqual({ ok: false, errors: { limit: 'Enter a whole number, such as 25.' }, general: [] });
    for (const message of [
      'must match ^[a-z][a-z0-9_]{0,63}$',
      'Invalid input: expected string, received undefined',
      'Invalid option: expected one of "a"|"b"',
      'Too big: expected string to have <=200 characters',
    ]) {
      expect(inWords(message)).not.toMatch(/\^|\$|\[a-z|expected|received/);
    }
  });

  it('places the server’s details, and lists changes by label', () => {
    const inputs = argumentInputs('createField');
    expect(
      placeDetails(inputs, [
        { path: 'arguments.field.options.values', message: 'enum fields need options.values: a non-empty array of strings' },
      ]),
    ).toEqual({
      errors: { 'field.options': 'A choice field needs a list of values to choose from.' },
      general: [],
    });
    expect(
      describeChanges(
        inputs,
        { collection: 'posts', field: { name: 'teaser', type: 'string' } },
        { collection: 'posts', field: { name: 'standfirst', type: 'text' } },
      ),
    ).toEqual([
      { label: 'Field › Name', from: 'teaser', to: 'standfirst' },
      { label: 'Field › Type', from: 'string', to: 'text' },
    ]);
  });
});
