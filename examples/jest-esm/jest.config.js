// Jest for a TypeScript project of ES modules (package.json "type": "module"; tsconfig "module": "nodenext" and
// "isolatedModules": true), which the contract suites of @petstore/core/contracts need. Run it as
// `NODE_OPTIONS=--experimental-vm-modules jest`: without the flag, Jest cannot load an ES module.
export default {
  extensionsToTreatAsEsm: ['.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { useESM: true }] },
  // Relative imports end in .js, as Node needs them; Jest finds the .ts file.
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
};
