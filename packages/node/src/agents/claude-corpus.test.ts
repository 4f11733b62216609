import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseAgentSource } from '../../../core/src/definitions/parse-agent-source.js';
import { DefinitionError } from '../../../core/src/errors.js';

// The shared corpus of ~1,500 public Claude Code agent files, never copied into the repository:
// TROUPE_AGENT_CORPUS names its folder (`.ci/run` sets it when `../shared/corpus/claude-agents`
// exists). Without it the same checks run on corpus-like fixtures of our own, one per broken shape
// the corpus has (test/fixtures/agent-corpus), and a line says the full corpus did not run.
const CORPUS_FROM_ENV = process.env.TROUPE_AGENT_CORPUS?.trim() || undefined;
const FIXTURES = fileURLToPath(new URL('../../test/fixtures/agent-corpus', import.meta.url));
const CORPUS = CORPUS_FROM_ENV === undefined ? FIXTURES : resolve(CORPUS_FROM_ENV);
const full = CORPUS_FROM_ENV !== undefined;
if (!full)
  console.log(
    `claude-corpus: TROUPE_AGENT_CORPUS is not set, so the full Claude Code agent corpus did not run; ran on the fixtures in ${FIXTURES}`,
  );

/** The front-matter fields Claude Code documents (v2.1.240). */
const CLAUDE_CODE_FIELDS = [
  'name',
  'description',
  'tools',
  'disallowedTools',
  'model',
  'permissionMode',
  'mcpServers',
  'hooks',
  'maxTurns',
  'skills',
  'initialPrompt',
  'memory',
  'effort',
  'background',
  'isolation',
  'color',
];

/** What the run must find: the full corpus (SOURCES.md) or the fixtures. */
const EXPECTED = full
  ? { minimumFiles: 1_400, failed: 4, minimumRepaired: 39 }
  : { minimumFiles: 11, failed: 2, minimumRepaired: 5 };

/** The known oddities: the corpus's files, or the fixture written in the same shape. */
const ODDITIES = full
  ? {
      starDescription: 'rshah515__claude-code-subagents/core__architect.md',
      starDescriptionStart: /^\*\*TECHNICAL DESIGN SPECIALIST\*\*: Transforms/,
      starTools: 'davila7__claude-code-templates/cli-tool__components__agents__data-ai__monday-bug-fixer.md',
      colonDescription:
        'VoltAgent__awesome-claude-code-subagents/categories__04-quality-security__gdpr-ccpa-compliance.md',
      colonText: "Triggers on: 'GDPR'",
      colonTools: ['Read', 'Grep', 'Glob', 'WebFetch', 'WebSearch'],
      unindented: 'affaan-m__everything-claude-code/docs__ja-JP__agents__go-reviewer.md',
      unindentedText: 'コード変更に使用してください',
      indented: '0xfurai__claude-code-subagents/agents__sqs-expert.md',
      indentedName: 'sqs-expert',
      longDashes: 'vijaythecoder__awesome-claude-agents/agents__universal__frontend-developer.md',
      longDashesBody: '# Frontend',
      crlf: 'davila7__claude-code-templates/cli-tool__components__agents__development-tools__unused-code-cleaner.md',
      crlfColor: 'orange',
      hooks: 'davila7__claude-code-templates/cli-tool__components__agents__security__read-only-auditor.md',
      hookMatchers: ['Write|Edit|MultiEdit', 'Bash'],
    }
  : {
      starDescription: 'release-tools/release-checker.md',
      starDescriptionStart: /^\*\*RELEASE GATEKEEPER\*\*: Compares/,
      starTools: 'release-tools/incident-fixer.md',
      colonDescription: 'data-team/schema-advisor.md',
      colonText: "Triggers on: 'migration'",
      colonTools: ['Read', 'Grep', 'Glob', 'WebFetch'],
      unindented: 'data-team/query-reviewer.md',
      unindentedText: 'Pflicht für Projekte mit einer Datenbank',
      indented: 'odd-layouts/queue-expert.md',
      indentedName: 'queue-expert',
      longDashes: 'odd-layouts/docs-writer.md',
      longDashesBody: '# Docs Writer',
      crlf: 'odd-layouts/dead-code-finder.md',
      crlfColor: 'teal',
      hooks: 'claude-fields/read-only-auditor.md',
      hookMatchers: ['Bash'],
    };

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
  it('exists where TROUPE_AGENT_CORPUS says (or the fixtures do)', () => {
    expect(existsSync(CORPUS), `corpus not found at ${CORPUS} (TROUPE_AGENT_CORPUS)`).toBe(true);
  });

  it('loads every file that has front matter with a description; the rest fail naming the file', () => {
    const files = corpusFiles();
    expect(files.length).toBeGreaterThanOrEqual(EXPECTED.minimumFiles);
    let loaded = 0;
    const failed: string[] = [];
    const warningsByKind: Record<string, number> = {};
    const unknownDocumented: string[] = [];
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
          if (warning.kind === 'unknown-field' && CLAUDE_CODE_FIELDS.includes(warning.field ?? ''))
            unknownDocumented.push(warning.message);
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
    expect(failed).toHaveLength(EXPECTED.failed);
    expect(warningsByKind['yaml-repaired']).toBeGreaterThanOrEqual(EXPECTED.minimumRepaired);
    // Every field Claude Code documents is read by troupe, so none of them is an unknown field.
    expect(unknownDocumented).toEqual([]);
  });

  it('reads the known oddities as a person would', () => {
    const parse = (file: string) =>
      parseAgentSource(readFileSync(join(CORPUS, file), 'utf8'), { path: file });
    const o = ODDITIES;
    expect(parse(o.starDescription).definition.description).toMatch(o.starDescriptionStart);
    expect(parse(o.starTools).definition.tools).toEqual(['*']);
    const colon = parse(o.colonDescription);
    expect(colon.definition.description).toContain(o.colonText);
    expect(colon.definition.tools).toEqual(o.colonTools);
    const unindented = parse(o.unindented).definition;
    expect(unindented.description).toContain(o.unindentedText);
    expect(unindented.tools).toEqual(['Read', 'Grep', 'Glob', 'Bash']);
    const indented = parse(o.indented);
    expect(indented.definition.name).toBe(o.indentedName);
    expect(indented.definition.systemPrompt.startsWith('## Focus Areas')).toBe(true);
    const dashes = parse(o.longDashes);
    expect(dashes.definition.systemPrompt.startsWith(o.longDashesBody)).toBe(true);
    const crlf = parse(o.crlf);
    expect(crlf.definition.color).toBe(o.crlfColor);
    expect(crlf.definition.systemPrompt).not.toContain('\r');
    const hooked = parse(o.hooks).definition;
    expect(hooked.hooks?.PreToolUse?.map((entry) => entry.matcher)).toEqual(o.hookMatchers);
    expect(hooked.hooks?.PreToolUse?.[0]?.hooks[0]?.type).toBe('command');
  });
});
