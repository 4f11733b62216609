// The page's one bundle (troupe, the Anthropic SDK, XState) is ~850 KB minified, ~225 KB gzipped.
export default {
  build: { chunkSizeWarningLimit: 1024 },
};
