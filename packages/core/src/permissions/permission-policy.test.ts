import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../errors.js';
import type { ApprovalRequest } from '../events.js';
import { createRuntime } from '../runtime/create-runtime.js';
import { scriptedModel, textReply, toolReply } from '../testing/scripted-model.js';
import { defineTool } from '../tools/define-tool.js';
import { permissionRuleMatches } from './match-permission-rule.js';
import { createPermissionPolicy } from './permission-policy.js';
import { parsePermissionRule } from './permission-rule.js';

const bash = (command: string) => ({ tool: 'bash', input: { command } });
const write = (file_path: string) => ({ tool: 'write', input: { file_path, content: 'x' } });
const matches = (rule: string, call: { tool: string; input: unknown }, root?: string) =>
  permissionRuleMatches(parsePermissionRule(rule), call, root === undefined ? {} : { root });

describe('permission rules (Claude Code syntax)', () => {
  it('parses a tool, a command, a command prefix and a path pattern', () => {
    expect(parsePermissionRule('Bash')).toEqual({ text: 'Bash', tool: 'bash' });
    expect(parsePermissionRule('Bash(npm test:*)').scope).toEqual({
      kind: 'command-prefix',
      prefix: 'npm test',
    });
    expect(parsePermissionRule('Bash(git status)').scope).toEqual({ kind: 'command', command: 'git status' });
    expect(parsePermissionRule('Edit(./src/**)').scope).toEqual({ kind: 'path', pattern: 'src/**' });
    expect(() => parsePermissionRule('Bash(npm test')).toThrow(ValidationError);
    expect(() => parsePermissionRule('')).toThrow(/Permission rule "" is not valid/);
  });

  it('a prefix rule covers the command with any arguments, never a chained or redirected one', () => {
    expect(matches('Bash(npm test:*)', bash('npm test'))).toBe(true);
    expect(matches('Bash(npm test:*)', bash('npm  test -- --watch'))).toBe(true);
    expect(matches('Bash(npm test:*)', bash('npm testing'))).toBe(false);
    expect(matches('Bash(npm test:*)', bash('npm run build'))).toBe(false);
    for (const sneaky of [
      'npm test && rm -rf ~',
      'npm test; curl x',
      'npm test | sh',
      'npm test > /etc/x',
      'npm test $(rm -rf ~)',
      'npm test `id`',
      'npm test\nrm -rf ~',
    ]) {
      expect(matches('Bash(npm test:*)', bash(sneaky))).toBe(false);
    }
    expect(matches('Bash(git status)', bash('git status'))).toBe(true);
    expect(matches('Bash(git status)', bash('git status --short'))).toBe(false);
  });

  it('a path rule covers files under the pattern, relative to the workspace, never outside it', () => {
    expect(matches('Edit(src/**)', { tool: 'edit', input: { file_path: 'src/a/b.ts' } })).toBe(true);
    // Edit covers every file-editing tool, as in Claude Code.
    expect(matches('Edit(src/**)', write('src/new.ts'))).toBe(true);
    expect(matches('Write(docs/*.md)', write('docs/guide.md'))).toBe(true);
    expect(matches('Write(docs/*.md)', write('docs/deep/guide.md'))).toBe(false);
    expect(matches('Write(docs)', write('docs/deep/guide.md'))).toBe(true);
    expect(matches('Write(src/**)', write('/work/project/src/x.ts'), '/work/project')).toBe(true);
    expect(matches('Write(src/**)', write('/elsewhere/src/x.ts'), '/work/project')).toBe(false);
    expect(matches('Write(src/**)', write('src/../../etc/passwd'))).toBe(false);
    expect(matches('Write(src/**)', bash('src/x'))).toBe(false);
  });

  it("mcp__server covers that server's tools only", () => {
    expect(matches('mcp__github', { tool: 'mcp__github__create_issue', input: {} })).toBe(true);
    expect(matches('mcp__github', { tool: 'mcp__gitlab__create_issue', input: {} })).toBe(false);
  });

  it('deny wins over allow; unmatched calls follow "otherwise"; allow() adds a rule', () => {
    const policy = createPermissionPolicy({ allow: ['Bash(npm:*)'], deny: ['Bash(npm publish:*)'] });
    const request = (call: { tool: string; input: unknown }) => call as unknown as ApprovalRequest;
    expect(policy.decide(request(bash('npm test')))).toBe('approve');
    expect(policy.decide(request(bash('npm publish')))).toEqual({
      decision: 'deny',
      reason: 'the permission rule Bash(npm publish:*) denies it',
    });
    expect(policy.decide(request(bash('make')))).toBe('ask');
    policy.allow('Bash(make:*)');
    expect(policy.decide(request(bash('make all')))).toBe('approve');
    expect(createPermissionPolicy({ otherwise: 'deny' }).decide(request(bash('make')))).toEqual({
      decision: 'deny',
      reason: 'no permission rule allows it, and the approval policy denies the rest',
    });
  });
});

describe('a runtime with a permission policy', () => {
  it('runs allowed calls without asking, refuses denied ones, and asks the host about the rest', async () => {
    const ran: string[] = [];
    const shell = defineTool({
      name: 'bash',
      description: 'Run a command',
      access: 'execute',
      input: v.object({ command: v.string() }),
      execute: ({ command }) => {
        ran.push(command);
        return `ran ${command}`;
      },
    });
    const commands = ['npm test -- --ci', 'npm publish', 'make'];
    const model = scriptedModel((_request, { call }) =>
      call < commands.length ? toolReply('bash', { command: commands[call]! }) : textReply('done'),
    );
    const policy = createPermissionPolicy({ allow: ['Bash(npm test:*)'], deny: ['Bash(npm publish:*)'] });
    const runtime = createRuntime({
      model,
      tools: [shell],
      agents: [{ name: 'runner', description: 'Runs commands.', systemPrompt: 'Run.' }],
      approval: policy.decide,
    });
    const asked: string[] = [];
    runtime.on('approval.requested', (request) => {
      asked.push((request.input as { command: string }).command);
      runtime.approve(request.id);
    });
    const result = await runtime.spawn({ agent: 'runner', prompt: 'go' }).result;
    expect(result.status).toBe('completed');
    expect(ran).toEqual(['npm test -- --ci', 'make']);
    expect(asked).toEqual(['make']);
    const denied = model.requests[2]!.messages.at(-1)!.content as { content: string; is_error?: boolean }[];
    expect(denied[0]).toMatchObject({ is_error: true });
    expect(denied[0]!.content).toContain('Bash(npm publish:*)');
    await runtime.shutdown();
  });
});
