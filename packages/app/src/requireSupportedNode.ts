import { unsupportedNode } from './supportedNode.js';

const unsupported = unsupportedNode(process.versions.node);
if (unsupported !== null) {
  process.stderr.write(`${unsupported}\n`);
  process.exit(1);
}
