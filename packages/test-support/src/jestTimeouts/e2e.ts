// The default timeout of every e2e test (a project's own testTimeout is not applied by Jest 30; setup files are).
import { jest } from '@jest/globals';

jest.setTimeout(120_000);
