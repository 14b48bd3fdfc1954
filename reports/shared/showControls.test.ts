import { describe, expect, it } from 'vitest';
import { showControls } from './showControls.js';

describe('showControls', () => {
  it('turns control characters into their pictures, keeping tab and line feed', () => {
    expect(showControls('a\u0000b\u0001\u001b[0m\r\n\t\u007f')).toBe('a␀b␁␛[0m␍\n\t␡');
  });

  it('replaces lone surrogates and U+FFFE/U+FFFF, keeping pairs and other text', () => {
    expect(showControls('x\ud800y\udc00z\ud83e\udd80 \ufffe\uffff é日本')).toBe('x\ufffdy\ufffdz🦀 \ufffd\ufffd é日本');
  });
});
