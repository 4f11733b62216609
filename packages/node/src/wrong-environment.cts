// What a bundler for the browser gets for `@troupe/node` (the package's `browser` export
// condition): an import that fails at once with a message naming the package to use there,
// instead of a deep stack from a missing `node:fs` later. CommonJS on purpose: a bundler lets an
// app import any name from it (an ES module here would need every export of the real entry
// repeated), and it still runs, and throws, where the app imports it.
throw new Error(
  '@troupe/node runs in Node.js only (its tools read files and run commands, its store writes to disk); ' +
    'in a browser, use @troupe/browser (createIndexedDbStore, createOpfsTools, createFetchTool) with @troupe/core.',
);
