// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} is the configuration syntax under test.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { accessOf, McpConfigError, parseMcpConfig } from '../src/index.js';
import { loadMcpConfig, serverEnvironment } from '../src/node/index.js';

describe('parseMcpConfig', () => {
  it('reads Claude Code .mcp.json entries: stdio and http', () => {
    const { servers, warnings } = parseMcpConfig(
      {
        mcpServers: {
          github: { command: 'npx', args: ['-y', 'server-github'], env: { TOKEN: '${GH_TOKEN}' } },
          docs: {
            type: 'http',
            url: 'https://example.test/mcp',
            headers: { Authorization: 'Bearer ${DOCS_KEY}' },
          },
        },
      },
      { source: '.mcp.json', environment: { GH_TOKEN: 'ghp_secret', DOCS_KEY: 'k-123' } },
    );
    expect(warnings).toEqual([]);
    expect(servers).toEqual([
      {
        name: 'github',
        source: '.mcp.json',
        config: {
          type: 'stdio',
          command: 'npx',
          args: ['-y', 'server-github'],
          env: { TOKEN: 'ghp_secret' },
        },
      },
      {
        name: 'docs',
        source: '.mcp.json',
        config: { type: 'http', url: 'https://example.test/mcp', headers: { Authorization: 'Bearer k-123' } },
      },
    ]);
  });

  it('expands ${VAR:-default}; an unset variable is a warning that names server, field and variable', () => {
    const { servers, warnings } = parseMcpConfig(
      { s: { command: '${BIN:-node}', args: ['${MISSING}'] } },
      { source: 'x.json', environment: {} },
    );
    expect(servers[0]!.config).toMatchObject({ command: 'node', args: [''] });
    expect(warnings).toEqual([
      'x.json: MCP server "s" uses ${MISSING} in s.args.0, but MISSING is not set; it expands to an empty string.',
    ]);
  });

  it('reads troupe overrides: access, toolAccess, timeouts', () => {
    const { servers } = parseMcpConfig({
      s: {
        command: 'x',
        access: 'read',
        toolAccess: { write: 'write' },
        timeoutMs: 5000,
        startTimeoutMs: 100,
      },
    });
    expect(servers[0]!.config).toMatchObject({
      access: 'read',
      toolAccess: { write: 'write' },
      timeoutMs: 5000,
    });
  });

  it.each([
    [{ s: {} }, /x\.json: MCP server "s": "command" is required/],
    [{ s: { type: 'sse', url: 'http://a' } }, /type "sse" .* not supported; use "type": "http"/],
    [{ s: { type: 'http', url: 'not a url' } }, /"url" must be an http\(s\) URL, got "not a url"/],
    [{ s: { command: 'x', access: 'admin' } }, /"access" must be 'read', 'write' or 'execute'/],
    [{ s: 3 }, /MCP server "s" must be an object/],
    [{ mcpServers: [] }, /"mcpServers" must be an object/],
  ])('names source, server and field for %j', (value, message) => {
    expect(() => parseMcpConfig(value, { source: 'x.json' })).toThrow(McpConfigError);
    expect(() => parseMcpConfig(value, { source: 'x.json' })).toThrow(message);
  });

  it('never repeats an env or header value in an error', () => {
    expect(() => parseMcpConfig({ s: { command: 'x', env: { TOKEN: 12345678 } } })).toThrow(
      /"env.TOKEN" must be/,
    );
    try {
      parseMcpConfig({ s: { command: 'x', env: { TOKEN: 12345678 } } });
    } catch (error) {
      expect((error as Error).message).not.toContain('12345678');
    }
  });
});

describe('accessOf', () => {
  it.each([
    // The server's own readOnlyHint never lets a tool skip approval: only the user's overrides do.
    [{ readOnlyHint: true }, {}, 'write'],
    [{ readOnlyHint: true, destructiveHint: true }, {}, 'execute'],
    [{ destructiveHint: true }, { access: 'read' as const }, 'read'],
    [{ readOnlyHint: false, destructiveHint: false, openWorldHint: false }, {}, 'write'],
    [{ destructiveHint: true }, {}, 'execute'],
    [{ openWorldHint: true }, {}, 'execute'],
    [undefined, {}, 'write'],
    [{ readOnlyHint: true }, { access: 'write' as const }, 'write'],
    [{ destructiveHint: true }, { access: 'write' as const, toolAccess: { t: 'read' as const } }, 'read'],
  ])('%j with overrides %j is %s', (annotations, overrides, expected) => {
    expect(accessOf('t', annotations, overrides)).toBe(expected);
  });
});

describe('loadMcpConfig', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'troupe-mcp-config-'));
    mkdirSync(join(dir, 'project'));
    mkdirSync(join(dir, 'home', '.troupe'), { recursive: true });
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads the project .mcp.json and the user ~/.troupe/mcp.json; the project wins', () => {
    writeFileSync(
      join(dir, 'project', '.mcp.json'),
      JSON.stringify({ mcpServers: { a: { command: 'project-a' } } }),
    );
    writeFileSync(
      join(dir, 'home', '.troupe', 'mcp.json'),
      JSON.stringify({ mcpServers: { a: { command: 'user-a' }, b: { command: '${B_BIN}' } } }),
    );
    const loaded = loadMcpConfig({
      cwd: join(dir, 'project'),
      home: join(dir, 'home'),
      environment: { B_BIN: 'bee' },
    });
    expect(
      loaded.servers.map((server) => [server.name, (server.config as { command: string }).command]),
    ).toEqual([
      ['a', 'project-a'],
      ['b', 'bee'],
    ]);
    expect(loaded.warnings).toEqual([
      expect.stringMatching(/"a" in .*mcp\.json is shadowed by the one in .*\.mcp\.json/),
    ]);
  });

  it('no files: no servers; invalid JSON: an error naming the file', () => {
    expect(loadMcpConfig({ cwd: join(dir, 'project'), home: join(dir, 'home') }).servers).toEqual([]);
    writeFileSync(join(dir, 'project', '.mcp.json'), '{ "mcpServers": ');
    expect(() => loadMcpConfig({ cwd: join(dir, 'project'), home: join(dir, 'home') })).toThrow(
      /project\/\.mcp\.json: not valid JSON/,
    );
  });
});

describe('serverEnvironment', () => {
  it('passes PATH and HOME, drops credentials, adds what the configuration names', () => {
    const environment = serverEnvironment(
      { EXTRA: '1' },
      { PATH: '/bin', HOME: '/h', ANTHROPIC_API_KEY: 'sk', AWS_SECRET_ACCESS_KEY: 'a', GITHUB_TOKEN: 'g' },
    );
    expect(environment).toEqual({ PATH: '/bin', HOME: '/h', EXTRA: '1' });
  });
});
