import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseAgentSource } from '../../../core/src/definitions/parse-agent-source.js';
import { DefinitionError } from '../../../core/src/errors.js';

// The shared corpus of ~1,500 public Claude Code agent files, next to the repository (never copied
// into it). Its absence is a failure, not a skip: the compatibility claim rests on it.
const REPO_ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../..');
const CORPUS = resolve(REPO_ROOT, '../shared/corpus/claude-agents');

function corpusFiles(): string[] {
  return readdirSync(CORPUS)
    .filter((entry) => entry !== 'LICENSES' && statSync(join(CORPUS, entry)).isDirectory())
    .flatMap((repo) =>
      readdirSync(join(CORPUS, repo))
        .filter((file) => file.endsWith('.md'))
        .map((file) => join(repo, file)),
    )
    .sort();
}

// Independent of the parser: does the file have a front-matter block with a description key?
function hasFrontMatterWithDescription(text: string): boolean {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const start = lines.findIndex((line) => line.trim() !== '');
  if (start === -1 || lines[start]!.trim() !== '---') return false;
  const end = lines.findIndex((line, index) => index > start && /^\s*-{3,}\s*$/.test(line));
  return end !== -1 && lines.slice(start + 1, end).some((line) => /^\s*description\s*:/.test(line));
}

describe('the Claude Code agent corpus', () => {
  it('exists next to the repository', () => {
    expect(existsSync(CORPUS), `corpus not found at ${CORPUS}`).toBe(true);
  });

  it('loads every file that has front matter with a description; the rest fail naming the file', () => {
    const files = corpusFiles();
    expect(files.length).toBeGreaterThanOrEqual(1_400);
    let loaded = 0;
    const failed: string[] = [];
    const warningsByKind: Record<string, number> = {};
    let filesWithWarnings = 0;
    for (const file of files) {
      const text = readFileSync(join(CORPUS, file), 'utf8');
      const expectLoad = hasFrontMatterWithDescription(text);
      try {
        const { definition, warnings } = parseAgentSource(text, { path: file });
        loaded++;
        expect(expectLoad, `${file} loaded but has no front matter with a description`).toBe(true);
        expect(definition.description.length).toBeGreaterThan(0);
        expect(definition.name).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
        if (warnings.length > 0) filesWithWarnings++;
        for (const warning of warnings) {
          warningsByKind[warning.kind] = (warningsByKind[warning.kind] ?? 0) + 1;
          expect(warning.message.startsWith(`${file}:`)).toBe(true);
        }
      } catch (error) {
        expect(error, `${file}: ${(error as Error).message}`).toBeInstanceOf(DefinitionError);
        expect(
          expectLoad,
          `${file} has front matter with a description but failed: ${(error as Error).message}`,
        ).toBe(false);
        expect((error as DefinitionError).file).toBe(file);
        expect((error as Error).message.startsWith(`${file}:1: no front matter found`)).toBe(true);
        failed.push(file);
      }
    }
    console.log(
      [
        `corpus ${CORPUS}: ${files.length} files, ${loaded} loaded (${filesWithWarnings} with warnings), ${failed.length} failed`,
        'warnings by kind:',
        ...Object.entries(warningsByKind)
          .sort((a, b) => b[1] - a[1])
          .map(([kind, count]) => `  ${kind}: ${count}`),
        'failed (no front matter):',
        ...failed.map((file) => `  ${file}`),
      ].join('\n'),
    );
    expect(loaded + failed.length).toBe(files.length);
    // SOURCES.md: 4 files are plain Markdown; the indented and long-dash ones have front matter.
    expect(failed).toHaveLength(4);
    expect(warningsByKind['yaml-repaired']).toBeGreaterThanOrEqual(39);
  });

  it('reads the known oddities as a person would', () => {
    const parse = (file: string) =>
      parseAgentSource(readFileSync(join(CORPUS, file), 'utf8'), { path: file });
    expect(parse('rshah515__claude-code-subagents/core__architect.md').definition.description).toMatch(
      /^\*\*TECHNICAL DESIGN SPECIALIST\*\*: Transforms/,
    );
    expect(
      parse('davila7__claude-code-templates/cli-tool__components__agents__data-ai__monday-bug-fixer.md')
        .definition.tools,
    ).toEqual(['*']);
    const gdpr = parse(
      'VoltAgent__awesome-claude-code-subagents/categories__04-quality-security__gdpr-ccpa-compliance.md',
    );
    expect(gdpr.definition.description).toContain("Triggers on: 'GDPR'");
    expect(gdpr.definition.tools).toEqual(['Read', 'Grep', 'Glob', 'WebFetch', 'WebSearch']);
    const japanese = parse('affaan-m__everything-claude-code/docs__ja-JP__agents__go-reviewer.md').definition;
    expect(japanese.description).toContain('コード変更に使用してください');
    expect(japanese.tools).toEqual(['Read', 'Grep', 'Glob', 'Bash']);
    const indented = parse('0xfurai__claude-code-subagents/agents__sqs-expert.md');
    expect(indented.definition.name).toBe('sqs-expert');
    expect(indented.definition.systemPrompt.startsWith('## Focus Areas')).toBe(true);
    const dashes = parse('vijaythecoder__awesome-claude-agents/agents__universal__frontend-developer.md');
    expect(dashes.definition.systemPrompt.startsWith('# Frontend')).toBe(true);
    const crlf = parse(
      'davila7__claude-code-templates/cli-tool__components__agents__development-tools__unused-code-cleaner.md',
    );
    expect(crlf.definition.color).toBe('orange');
    expect(crlf.definition.systemPrompt).not.toContain('\r');
  });
});
