import { describe, expect, it } from '@jest/globals';
import { unsupportedNode } from './supportedNode.js';

describe('the Node versions the server and the CLI run on', () => {
  it.each(['22.12.0', '22.23.5', '24.0.0', '24.22.3', '26.12.1', '27.0.0'])('runs on %s', (version) => {
    expect(unsupportedNode(version)).toBeNull();
  });

  it.each(['18.20.8', '20.20.2', '22.11.0', '23.11.1'])('refuses %s, naming the supported versions', (version) => {
    expect(unsupportedNode(version)).toBe(`This is Node.js ${version}; the pet store needs Node.js 22.12 or later: 22, 24 or 26 (26 recommended).`);
  });
});
