import type { OpfsWorkspace } from '@troupe/browser';

/** The small project the demo's OPFS workspace is seeded with (only files that are missing). */
export const DEMO_PROJECT: Record<string, string> = {
  'README.md': '# tiny-shop\n\nA small web shop. Start with `npm start`.\n',
  'package.json':
    '{\n  "name": "tiny-shop",\n  "scripts": { "start": "node src/server.js", "test": "node --test" }\n}\n',
  'src/server.js':
    "import { login } from './auth.js';\n\n// TODO: rate-limit logins\nexport function start() {\n  return login;\n}\n",
  'src/auth.js':
    'export function login(user, password) {\n  // TODO: hash passwords\n  return user.password === password;\n}\n',
  'src/cart.js': 'export const cart = [];\n\nexport function add(item) {\n  cart.push(item);\n}\n',
  'test/cart.test.js':
    "import { add, cart } from '../src/cart.js';\n\nadd('apple');\nconsole.assert(cart.length === 1);\n",
};

/** Writes the demo project's files that are not in the workspace yet. */
export async function seedDemoProject(workspace: OpfsWorkspace): Promise<void> {
  for (const [path, content] of Object.entries(DEMO_PROJECT)) {
    const segments = path.split('/');
    if (!(await workspace.entry(segments))) await workspace.writeFile(segments, content);
  }
}
