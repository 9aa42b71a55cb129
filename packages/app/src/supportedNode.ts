// Imported first by the server's and the CLI's entry points: on a Node older than the oldest supported one, they stop
// here with a message that says which to install, rather than fail later on something that Node lacks (the SQLite
// driver's prebuilt binaries need Node 22).

/** The Node releases the server and the CLI run on, as `engines` in package.json states them. */
const SUPPORTED_NODE = 'Node.js 22.12 or later: 22, 24 or 26 (26 recommended)';

/** Why the server cannot run on this Node version (`process.versions.node`), or null when it can. */
export function unsupportedNode(version: string): string | null {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  const supported = major >= 24 || (major === 22 && minor >= 12);
  return supported ? null : `This is Node.js ${version}; the pet store needs ${SUPPORTED_NODE}.`;
}
