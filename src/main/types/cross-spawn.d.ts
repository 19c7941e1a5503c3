// cross-spawn: the spawn the MCP SDK's stdio transport uses, and so do the gateway's stdio backends and
// interceptor servers. On Windows it runs `npx` and other `.cmd` shims, which Node's spawn refuses without a
// shell, and resolves PATHEXT as a shell would. It has the signature of child_process.spawn; its own types are
// a separate package this project does not need.
declare module 'cross-spawn' {
  import type { spawn } from 'node:child_process';
  const crossSpawn: typeof spawn;
  export default crossSpawn;
}
