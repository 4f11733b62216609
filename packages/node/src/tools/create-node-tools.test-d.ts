import type { TaskStore, Tool } from '@troupe/core';
import type { EditInput } from '@troupe/core/workspace';
import { describe, expectTypeOf, it } from 'vitest';
import { createFileStore, type FileStore } from '../store/file-store.js';
import { createNodeTools } from './create-node-tools.js';
import { createEditTool } from './workspace-tools.js';

describe('@troupe/node public types', () => {
  it('tools fit the core Tool type and keep typed inputs', () => {
    expectTypeOf(createNodeTools).returns.toEqualTypeOf<Tool[]>();
    expectTypeOf(createEditTool).returns.toEqualTypeOf<Tool<EditInput>>();
    expectTypeOf<EditInput>().toEqualTypeOf<{
      file_path: string;
      old_string: string;
      new_string: string;
      replace_all?: boolean | undefined;
    }>();
  });

  it('the file store is a TaskStore whose prune takes an optional time', () => {
    expectTypeOf(createFileStore).returns.toEqualTypeOf<FileStore>();
    expectTypeOf<FileStore>().toMatchTypeOf<TaskStore>();
    expectTypeOf<FileStore['prune']>().parameters.toEqualTypeOf<[options?: { olderThan?: number }]>();
  });
});
