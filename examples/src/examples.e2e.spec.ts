// The docs' runnable examples, run as a reader would run them (built, with node): they must keep working.
import { describe, expect, it } from '@jest/globals';
import { runNodeProcess } from '@petstore/test-support';

const built = (name: string) => new URL(`../dist/${name}`, import.meta.url).pathname;

describe('the examples of the docs', () => {
  it('embeds the core: issues a key, admits a request, creates and lists pets, refuses a bad pet', async () => {
    const result = await runNodeProcess(built('embed-core.js'), []);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toMatch(/^key_[0-9a-f]{16} admitted: 299 of 300 requests left this minute$/m);
    expect(result.stdout).toContain("pending: [ { id: 2, name: 'Mia', categoryId: 2, status: 'pending' } ]");
    expect(result.stdout).toContain('refused: validation_error');
  });

  it('mounts the API in a Koa app under a prefix, beside the host app', async () => {
    const result = await runNodeProcess(built('mount-in-koa.js'), []);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toContain("201 http://127.0.0.1:8080/shelter/v1/pets/1 { id: 1, name: 'Rex', categoryId: 1, status: 'available' }");
    expect(result.stdout).toMatch(/^200 X-RateLimit-Remaining: \d+ /m);
    expect(result.stdout).toContain('401 without a key');
    expect(result.stdout).toContain("{ hello: 'from the host app' }");
  });

  it('starts the whole server with an adapter rebound, and stops it', async () => {
    const result = await runNodeProcess(built('swap-an-adapter.js'), []);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toContain('/livez answers 200');
  });
});
