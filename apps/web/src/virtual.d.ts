declare module 'virtual:troupe-built-in-agents' {
  /** The built-in agent definitions as JSON, parsed at build time (see `built-in-agents.ts`). */
  const json: string;
  export default json;
}
