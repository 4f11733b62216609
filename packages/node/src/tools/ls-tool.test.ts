import { beforeEach, describe, expect, it } from 'vitest';
import { toolContext, useTestWorkspace } from '../../test/helpers/workspace.js';
import { createLsTool } from './workspace-tools.js';

const ws = useTestWorkspace({
  'b.txt': 'hello',
  'a.md': 'x'.repeat(2048),
  'src/index.ts': '',
  'docs/x': '',
});
beforeEach(async () => {
  await ws.link('link.txt', 'b.txt');
});

describe('ls', () => {
  it('lists directories first, then files with sizes and links with targets', async () => {
    const ls = createLsTool({ root: ws.root });
    expect(await ls.execute({}, toolContext())).toBe(
      './ (2 directories, 3 files)\ndocs/\nsrc/\na.md  (2.0 KB)\nb.txt  (5 B)\nlink.txt -> b.txt',
    );
    expect(await ls.execute({ path: 'src' }, toolContext())).toBe(
      'src/ (0 directories, 1 files)\nindex.ts  (0 B)',
    );
  });

  it('says when a directory is empty and refuses files', async () => {
    await ws.write({ 'empty/.keep': '' });
    const ls = createLsTool({ root: ws.root });
    expect(await ls.execute({ path: 'empty' }, toolContext())).toBe(
      'empty/ (0 directories, 1 files)\n.keep  (0 B)',
    );
    await expect(ls.execute({ path: 'b.txt' }, toolContext())).rejects.toThrow(
      '"b.txt" is a file, not a directory',
    );
  });
});
