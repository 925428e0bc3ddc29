import { describe, expect, it } from 'vitest';
import { ContactListError, parseContactList, parseCsv } from '../../src/broadcast/csv-reader.js';

describe('parseContactList', () => {
  it('should read contacts and report bad rows with their line numbers', () => {
    const csv = [
      'name,phone,order',
      'Ada,+15551230001,A1',
      'Bob,12345,B2',
      'Cy,+15551230001,C3',
      'Di,+15551230004,',
      'Ed,+15551230005',
      '',
      'Fay, +15551230006 ,F6',
    ].join('\n');
    const list = parseContactList(csv, ['order'], 'c.csv');
    expect(list.contacts).toEqual([
      { line: 2, phone: '+15551230001', params: ['A1'] },
      { line: 8, phone: '+15551230006', params: ['F6'] },
    ]);
    expect(list.bad.map((b) => [b.line, b.reason])).toEqual([
      [3, 'invalid_phone'],
      [4, 'duplicate'],
      [5, 'missing_param'],
      [6, 'column_count'],
    ]);
    expect(list.bad[0]?.message).toBe(
      'c.csv:3: phone "12345" is not E.164 (+ then 8 to 15 digits, e.g. +15551234567)',
    );
    expect(list.bad[1]?.message).toBe('c.csv:4: phone +15551230001 already on line 2');
  });

  it('should accept 8 and 15 digits and reject 7 and 16 (E.164 boundaries)', () => {
    const csv = ['phone', '+12345678', '+123456789012345', '+1234567', '+1234567890123456'].join(
      '\n',
    );
    const list = parseContactList(csv, []);
    expect(list.contacts.map((c) => c.phone)).toEqual(['+12345678', '+123456789012345']);
    expect(list.bad.map((b) => b.line)).toEqual([4, 5]);
  });

  it('should refuse a file without a phone column or with an unknown --params column', () => {
    expect(() => parseContactList('name\nAda\n', [], 'c.csv')).toThrow(
      new ContactListError('c.csv:1: the header has no "phone" column (found: name)'),
    );
    expect(() => parseContactList('phone\n+15551230001\n', ['first'], 'c.csv')).toThrow(
      /--params names column "first", which the header does not have/,
    );
    expect(() => parseContactList('', [], 'c.csv')).toThrow(/is empty/);
  });

  it('should read quoted cells with commas, quotes and line breaks, CRLF and a BOM', () => {
    const csv = '\uFEFFphone,note\r\n+15551230001,"a, ""b""\r\nc"\r\n+15551230002,x\r\n';
    const list = parseContactList(csv, ['note']);
    expect(list.contacts).toEqual([
      { line: 2, phone: '+15551230001', params: ['a, "b"\r\nc'] },
      { line: 4, phone: '+15551230002', params: ['x'] },
    ]);
    expect(parseCsv('a,b\n1,2').map((r) => r.cells)).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
  });
});
