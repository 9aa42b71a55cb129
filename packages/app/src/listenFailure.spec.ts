import { describe, expect, it } from '@jest/globals';
import { listenFailure } from './listenFailure.js';

const failure = (code: string) => Object.assign(new Error(`listen ${code}`), { code });

describe('listenFailure', () => {
  it.each([
    [
      'EADDRINUSE',
      '127.0.0.1',
      'PORT=3000 HOST=127.0.0.1: port 3000 is already in use on 127.0.0.1 (another petstore server?). Stop what holds it, or set PORT to a free port (PORT=0: any free port).',
    ],
    [
      'EACCES',
      '127.0.0.1',
      'PORT=3000 HOST=127.0.0.1: this user may not listen on port 3000 (ports below 1024 need privileges). Choose PORT=1024 or above.',
    ],
    [
      'EADDRNOTAVAIL',
      '192.0.2.1',
      'PORT=3000 HOST=192.0.2.1: 192.0.2.1 is not an address of this machine. Set HOST=127.0.0.1 (this machine only) or HOST=0.0.0.0 (every interface).',
    ],
    [
      'ENOTFOUND',
      'petstore.invalid',
      'PORT=3000 HOST=petstore.invalid: the host name petstore.invalid does not resolve. Set HOST to an IP address of this machine, such as 127.0.0.1.',
    ],
  ])('says which setting to change on %s', (code, host, message) => {
    expect(listenFailure(failure(code), { variable: 'PORT', port: 3000, host })).toEqual(new Error(message));
  });

  it('names METRICS_PORT when the metrics port is the one taken', () => {
    expect((listenFailure(failure('EADDRINUSE'), { variable: 'METRICS_PORT', port: 9464, host: '0.0.0.0' }) as Error).message).toBe(
      'METRICS_PORT=9464 HOST=0.0.0.0: port 9464 is already in use on 0.0.0.0 (another petstore server?). Stop what holds it, or set METRICS_PORT to a free port (METRICS_PORT=0: any free port).',
    );
  });

  it('passes any other error through unchanged', () => {
    const other = failure('EMFILE');
    expect(listenFailure(other, { variable: 'PORT', port: 3000, host: '127.0.0.1' })).toBe(other);
  });
});
