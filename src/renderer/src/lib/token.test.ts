import { describe, expect, it } from 'vitest';
import { readToken } from './token.ts';

describe('readToken', () => {
  it('takes the token from the fragment and leaves nothing behind', () => {
    expect(readToken('#token=abc123', null)).toEqual({ token: 'abc123', cleanedHash: '', fromHash: true });
  });

  it('keeps other fragment parameters', () => {
    expect(readToken('#token=abc&view=chat', null)).toEqual({
      token: 'abc',
      cleanedHash: '#view=chat',
      fromHash: true,
    });
  });

  it('prefers the URL over a stored token (a new launch has a new token)', () => {
    expect(readToken('#token=new', 'old').token).toBe('new');
  });

  it('falls back to the stored token after a reload', () => {
    expect(readToken('', 'kept')).toEqual({ token: 'kept', cleanedHash: '', fromHash: false });
  });

  it('decodes URL-encoded tokens', () => {
    expect(readToken('#token=a%2Bb%3D', null).token).toBe('a+b=');
  });

  it('reports no token when there is none', () => {
    expect(readToken('#view=files', null)).toEqual({
      token: null,
      cleanedHash: '#view=files',
      fromHash: false,
    });
    expect(readToken('#token=', '  ').token).toBeNull();
  });
});
