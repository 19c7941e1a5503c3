// cross-spawn (the spawn the MCP SDK's stdio transport uses: on Windows it resolves `npx`, `.cmd` shims and
// PATHEXT the way a shell would) has the signature of child_process.spawn; its own types are a separate
// package this project does not need.
declare module 'cross-spawn' {
  import type { spawn } from 'node:child_process';
  const crossSpawn: typeof spawn;
  export default crossSpawn;
}
