import { DefinitionError, ModelError, PersistenceError } from '@troupe/core';
import { describe, expect, it } from 'vitest';
import { CliError, describeError, reportError, UsageError } from '../src/errors.js';
import { exitCodeFor } from '../src/exit-codes.js';

describe('errors become one line and an exit code', () => {
  it('CLI errors keep their message and code', () => {
    expect(describeError(new UsageError('bad flag'))).toEqual({
      message: 'bad flag',
      exitCode: 2,
      expected: true,
    });
    expect(describeError(new CliError('no key'))).toEqual({ message: 'no key', exitCode: 1, expected: true });
  });

  it('troupe errors are recognised by their code: unknown names are usage errors', () => {
    expect(
      describeError(new DefinitionError('No agent named "x".', { code: 'DEFINITION_NOT_FOUND' })),
    ).toMatchObject({
      exitCode: 2,
      expected: true,
    });
    expect(describeError(new ModelError('MODEL_AUTH', 'The key was refused.\nmore'))).toEqual({
      message: 'The key was refused.',
      exitCode: 1,
      expected: true,
    });
    expect(describeError(new PersistenceError('PERSISTENCE_CORRUPT', 'bad file'))).toMatchObject({
      exitCode: 1,
    });
  });

  it('anything else is unexpected and points to --debug', () => {
    expect(describeError(new TypeError('x is undefined')).message).toBe(
      'Unexpected error: x is undefined (run again with --debug to see the details).',
    );
  });

  it('prints the stack and causes only with debug', () => {
    const out: string[] = [];
    const error = new CliError('outer', 1, { cause: new Error('inner') });
    expect(reportError(error, { write: (text) => out.push(text) }, false)).toBe(1);
    expect(out).toEqual(['troupe: outer\n']);
    out.length = 0;
    reportError(error, { write: (text) => out.push(text) }, true);
    expect(out.join('')).toMatch(/^troupe: outer\nCliError: outer\n\s+at [\s\S]*Caused by: Error: inner/);
  });

  it('run exit codes by terminate reason', () => {
    expect(
      ['GOAL', 'MAX_TURNS', 'TIMEOUT', 'TOKEN_LIMIT', 'ERROR', 'ABORTED'].map((reason) =>
        exitCodeFor(reason as never),
      ),
    ).toEqual([0, 3, 4, 5, 6, 130]);
  });
});
