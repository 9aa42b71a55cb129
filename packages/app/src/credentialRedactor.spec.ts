import { describe, expect, it } from '@jest/globals';
import { credentialRedactor } from './credentialRedactor.js';

const ADMIN_TOKEN = 'Zx9-admin-token-4f1c0a9e7b3d2c4a6e8f0b1d3c5a7e9f';
const KEY = 'pst_NzrtDIVrgafSZAe5mXHC16bmB0RTAj115vIp';
const redactor = credentialRedactor([ADMIN_TOKEN]);

describe('credentialRedactor', () => {
  it.each([
    ['access_token=' + KEY, 'access_token=REDACTED'],
    ['limit=5&ACCESS_TOKEN=abc&cursor=x', 'limit=5&ACCESS_TOKEN=REDACTED&cursor=x'],
    ['token=anything', 'token=REDACTED'],
    ['Key=anything&api_key=1', 'Key=REDACTED&api_key=REDACTED'],
    ['acc%65ss_token=abc', 'acc%65ss_token=REDACTED'],
    ['q=' + KEY, 'q=REDACTED'],
    ['q=pst%5Fabc', 'q=REDACTED'],
    ['q=' + encodeURIComponent(ADMIN_TOKEN), 'q=REDACTED'],
    ['x=' + ADMIN_TOKEN, 'x=REDACTED'],
    [KEY, 'REDACTED'],
    [`${KEY}=1&limit=2`, 'REDACTED&limit=2'],
    [
      'limit=20&cursor=eyJhdCI6MTc2NDA2NDgwMDAwMCwiaWQiOiJrZXlfM2YwYyJ9&status=sold',
      'limit=20&cursor=eyJhdCI6MTc2NDA2NDgwMDAwMCwiaWQiOiJrZXlfM2YwYyJ9&status=sold',
    ],
    ['name=%E0%A4%A', 'name=%E0%A4%A'],
    ['', ''],
  ])('redacts the query %j as %j', (query, expected) => {
    expect(redactor.query(query)).toBe(expected);
  });

  it.each([
    ['/v1/pets/42', '/v1/pets/42'],
    [`/v1/pets/${KEY}`, '/v1/pets/REDACTED'],
    [`/v1/${KEY}/pets`, '/v1/REDACTED/pets'],
    ['/v1/pets/pst%5Fabc', '/v1/pets/REDACTED'],
    [`/admin/v1/keys/${ADMIN_TOKEN}`, '/admin/v1/keys/REDACTED'],
    ['/v1/pets/%E0%A4%A', '/v1/pets/%E0%A4%A'],
  ])('redacts the path %j as %j', (path, expected) => {
    expect(redactor.path(path)).toBe(expected);
  });

  it('knows no secret but keys when given none', () => {
    expect(credentialRedactor([]).query(`x=${ADMIN_TOKEN}&y=${KEY}`)).toBe(`x=${ADMIN_TOKEN}&y=REDACTED`);
    expect(credentialRedactor(['']).path('/v1/pets')).toBe('/v1/pets');
  });
});
