import { describe, expect, it } from 'vitest';
import { useTestWorkspace } from '../../test/helpers/workspace.js';
import { createNodeTools } from './create-node-tools.js';

const ws = useTestWorkspace({}, { perFile: true });

describe('createNodeTools', () => {
  it('gives the seven tools with their access classes', () => {
    const tools = createNodeTools({ root: ws.root });
    expect(Object.fromEntries(tools.map((tool) => [tool.name, tool.access]))).toEqual({
      read: 'read',
      glob: 'read',
      grep: 'read',
      ls: 'read',
      write: 'write',
      edit: 'write',
      bash: 'execute',
    });
  });

  it('describes inputs to the model with Claude Code names, required fields and descriptions', () => {
    const schemas = Object.fromEntries(
      createNodeTools({ root: ws.root }).map((tool) => [tool.name, tool.inputJsonSchema]),
    );
    const shape = (name: string) => ({
      properties: Object.keys((schemas[name] as { properties: object }).properties),
      required: (schemas[name] as { required?: string[] }).required ?? [],
    });
    expect(shape('read')).toEqual({ properties: ['file_path', 'offset', 'limit'], required: ['file_path'] });
    expect(shape('glob')).toEqual({ properties: ['pattern', 'path'], required: ['pattern'] });
    expect(shape('grep')).toEqual({
      properties: ['pattern', 'path', 'glob', 'output_mode', '-i', '-n', '-A', '-B', '-C', 'head_limit'],
      required: ['pattern'],
    });
    expect(shape('ls')).toEqual({ properties: ['path'], required: [] });
    expect(shape('write')).toEqual({
      properties: ['file_path', 'content'],
      required: ['file_path', 'content'],
    });
    expect(shape('edit')).toEqual({
      properties: ['file_path', 'old_string', 'new_string', 'replace_all'],
      required: ['file_path', 'old_string', 'new_string'],
    });
    expect(shape('bash')).toEqual({
      properties: ['command', 'timeout', 'description'],
      required: ['command'],
    });
    for (const schema of Object.values(schemas)) {
      for (const property of Object.values(
        (schema as { properties: Record<string, { description?: string }> }).properties,
      )) {
        expect(property.description).toMatch(/\w{3,}/);
      }
    }
  });

  it('refuses a missing root and bad limits', () => {
    expect(() => createNodeTools({ root: `${ws.root}/missing` })).toThrow(/is not an existing directory/);
    expect(() => createNodeTools({ root: ws.root, maxOutputChars: 0 })).toThrow(
      'Node tools option maxOutputChars must be a positive number; got 0.',
    );
  });
});
