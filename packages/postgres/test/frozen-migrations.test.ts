import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../src/store/migrations.js';

const landed: { sha256: string[] } = JSON.parse(
  readFileSync(new URL('./fixtures/landed-migrations.json', import.meta.url), 'utf8'),
);
const fingerprint = (text: string) => createHash('sha256').update(text).digest('hex');

describe('landed migrations are never edited', () => {
  it('every landed migration has the text it landed with', () => {
    const changed = landed.sha256
      .map((expected, index) => ({
        migration: index + 1,
        expected,
        actual: fingerprint(MIGRATIONS[index] ?? ''),
      }))
      .filter(({ expected, actual }) => expected !== actual)
      .map(
        ({ migration }) =>
          `migration ${migration} changed after it landed: revert it and fix forward with a new migration`,
      );
    expect(changed).toEqual([]);
  });

  it('every migration is fingerprinted (a new one is appended to fixtures/landed-migrations.json)', () => {
    const unrecorded = MIGRATIONS.slice(landed.sha256.length).map(
      (text, index) =>
        `migration ${landed.sha256.length + index + 1} is not recorded: append "${fingerprint(text)}"`,
    );
    expect(unrecorded).toEqual([]);
  });
});
