// A FIFO in a repository must not hang `write`: opening one for writing waits for a reader
// forever, holding one of libuv's four threads. It is refused like a directory.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { toolContext, useTestWorkspace } from '../../test/helpers/workspace.js';
import { createWriteTool } from './workspace-tools.js';

const ws = useTestWorkspace();
beforeEach(async () => {
  execFileSync('mkfifo', [join(ws.root, 'pipe.txt')]);
});

describe('write and a FIFO', () => {
  it('refuses to write to a FIFO instead of waiting for a reader', async () => {
    const write = createWriteTool({ root: ws.root });
    await expect(write.execute({ file_path: 'pipe.txt', content: 'x' }, toolContext())).rejects.toThrow(
      '"pipe.txt" is not a regular file: pass the path of a file to create or overwrite.',
    );
  });
});
