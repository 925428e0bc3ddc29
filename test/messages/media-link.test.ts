import { describe, expect, it } from 'vitest';
import { checkMediaLink, validateContent } from '../../src/messages/index.js';

describe('checkMediaLink', () => {
  it.each([
    'https://cdn.example.com/a.jpg',
    'https://cdn.example.com:443/a.jpg',
    'HTTPS://CDN.Example.com/a.jpg?size=large&v=2',
    'https://cdn.example.com./a.jpg',
    'https://xn--bcher-kva.example/a.pdf',
    'https://media.example.co.uk/path/to/file.mp4',
    'https://x.arpa.example.com/a',
  ])('should accept %s', (link) => {
    expect(checkMediaLink(link)).toBeUndefined();
  });

  it.each([
    ['http://cdn.example.com/a.jpg', 'must use https'],
    ['ftp://cdn.example.com/a.jpg', 'must use https'],
    ['data:image/png;base64,AAAA', 'must use https'],
    ['https:cdn.example.com/a.jpg', 'must start with "https://"'],
    ['https://cdn.example.com:8443/a.jpg', 'only port 443'],
    ['https://cdn.example.com:80/a.jpg', 'only port 443'],
    ['https://user:pass@cdn.example.com/a.jpg', 'credentials'],
    ['https://user@cdn.example.com/a.jpg', 'credentials'],
    ['https://@cdn.example.com/a.jpg', 'credentials'],
    ['https://cdn.example.com/a.jpg#top', 'fragment'],
    ['https://cdn.example.com/a.jpg#', 'fragment'],
    ['https://93.184.216.34/a.jpg', 'IP address'],
    ['https://127.0.0.1/a.jpg', 'IP address'],
    ['https://127.0.0.1./a.jpg', 'IP address'],
    ['https://2130706433/a.jpg', 'IP address'],
    ['https://0x7f.1/a.jpg', 'IP address'],
    ['https://0177.0.0.1/a.jpg', 'IP address'],
    ['https://[::1]/a.jpg', 'IP address'],
    ['https://[2001:db8::1]/a.jpg', 'IP address'],
    ['https://localhost/a.jpg', 'local host name'],
    ['https://LOCALHOST./a.jpg', 'local host name'],
    ['https://api.localhost/a.jpg', 'local host name'],
    ['https://printer/a.jpg', 'single-label'],
    ['https://nas.local/a.jpg', 'local host name'],
    ['https://db.internal/a.jpg', 'local host name'],
    ['https://box.lan/a.jpg', 'local host name'],
    ['https://router.home/a.jpg', 'local host name'],
    ['https://wiki.corp/a.jpg', 'local host name'],
    ['https://host.localdomain/a.jpg', 'local host name'],
    ['https://nas.home.arpa/a.jpg', 'local host name'],
    ['/relative/a.jpg', 'not a valid absolute URL'],
    ['', 'is empty'],
    [' https://cdn.example.com/a.jpg', 'whitespace'],
    ['https://cdn.example.com/a b.jpg', 'whitespace'],
    ['https://cdn.example.com/a\n.jpg', 'whitespace'],
  ])('should reject %s (%s)', (link, reason) => {
    const issue = checkMediaLink(link);
    expect(issue).toBeDefined();
    expect(issue!.message).toContain(reason);
    expect(issue!.message).toContain('(spec 4.5.1)');
    expect(issue!.spec).toBe('4.5.1');
  });

  it.each(['image', 'video', 'audio', 'document'])(
    'should apply the link rules to %s content',
    (type) => {
      const result = validateContent({ type, [type]: { link: 'http://cdn.example.com/a' } });
      expect(result.status).toBe('invalid');
      if (result.status === 'invalid') {
        expect(result.issues).toEqual([
          expect.objectContaining({ path: `${type}.link`, spec: '4.5.1' }),
        ]);
      }
    },
  );

  it('should say a provider media ID cannot replace link', () => {
    const result = validateContent({ type: 'image', image: { id: '1234567890' } });
    expect(result.status === 'invalid' && result.issues.map((i) => [i.path, i.message])).toEqual([
      ['image.link', 'image.link is required (spec 4.5)'],
      [
        'image.id',
        'Unknown field "id" in image: a provider media ID cannot replace link; send a public HTTPS link (spec 4.5.1)',
      ],
    ]);
  });

  it('should reject a caption on audio', () => {
    const result = validateContent({
      type: 'audio',
      audio: { link: 'https://cdn.example.com/a.ogg', caption: 'x' },
    });
    expect(result.status === 'invalid' && result.issues[0]!.path).toBe('audio.caption');
  });
});
