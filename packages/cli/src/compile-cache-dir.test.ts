import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileCacheDir } from './compile-cache-dir.js';

describe('compileCacheDir', () => {
  it('is off when NODE_DISABLE_COMPILE_CACHE is set, even to an empty value', () => {
    expect(compileCacheDir({ NODE_DISABLE_COMPILE_CACHE: '1' }, '/home/u', '/tmp')).toBeUndefined();
    expect(compileCacheDir({ NODE_DISABLE_COMPILE_CACHE: '' }, '/home/u', '/tmp')).toBeUndefined();
  });

  it("takes node's NODE_COMPILE_CACHE first", () => {
    expect(compileCacheDir({ NODE_COMPILE_CACHE: '/c', XDG_CACHE_HOME: '/x' }, '/home/u', '/tmp')).toBe('/c');
  });

  it("is under the user's cache folder: XDG_CACHE_HOME, else ~/.cache", () => {
    expect(compileCacheDir({ XDG_CACHE_HOME: '/x' }, '/home/u', '/tmp')).toBe(
      join('/x', 'nodewright', 'compile-cache'),
    );
    expect(compileCacheDir({}, '/home/u', '/tmp')).toBe(
      join('/home/u', '.cache', 'nodewright', 'compile-cache'),
    );
  });

  it('is under the temporary folder when there is no home', () => {
    expect(compileCacheDir({}, undefined, '/tmp')).toBe(join('/tmp', 'nodewright', 'compile-cache'));
  });
});
